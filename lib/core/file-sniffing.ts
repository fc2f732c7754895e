// File-type sniffing: the first bytes each type we check must start with. A file is what its
// bytes say, not what its label says (an SVG or HTML file labelled image/png is refused). Used by
// uploads, member pictures and files received by email. Five types and their first bytes, read
// synchronously from a head the callers already hold: a detection library (file-type) would
// answer a wider question, asynchronously, for a dependency (docs/architecture.md).

const MAGIC_BYTES: Record<string, (bytes: Uint8Array) => boolean> = {
  "image/png": (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  "image/jpeg": (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  "image/gif": (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61,
  "image/webp": (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  "application/pdf": (b) => startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d]),
};

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((value, index) => bytes[index] === value);
}

/** Whether `bytes` start the way `contentType` does; types we cannot sniff pass. */
export function bytesMatchType(contentType: string, bytes: Uint8Array): boolean {
  const check = MAGIC_BYTES[contentType];
  return check ? check(bytes) : true;
}

export const canSniffType = (contentType: string) => contentType in MAGIC_BYTES;

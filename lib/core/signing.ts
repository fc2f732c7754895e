import { createHmac, timingSafeEqual } from "node:crypto";

// The one HMAC-SHA256 behind everything the service signs and later takes back: the links and the
// reply and bounce addresses in emails, upload URLs, the keyed hashes of suppressed addresses. A
// purpose goes before the message, so a value signed for one use proves nothing for another. The
// separator and the length kept are each format's own, so that what was already sent keeps
// verifying (tests/contract/signing-formats.test.ts pins them).

export interface SigningFormat {
  /** What the signature is for, written before the message. */
  purpose: string;
  /** Between purpose and message: ":" for links and hashes, "\n" for tokens and upload URLs. */
  separator: ":" | "\n";
  /** How many bytes of the digest a signature keeps; the whole 32 when unset. */
  bytes?: number;
}

export type Signable = string | Uint8Array;

/** The HMAC of `message` under `secret`, for the format's purpose. */
export function signature(secret: string, format: SigningFormat, message: Signable): Buffer {
  const digest = createHmac("sha256", secret).update(`${format.purpose}${format.separator}`).update(message).digest();
  return format.bytes === undefined ? digest : digest.subarray(0, format.bytes);
}

/** The same, as URL-safe text (links, upload URLs, stored hashes). */
export const textSignature = (secret: string, format: SigningFormat, message: Signable): string =>
  signature(secret, format, message).toString("base64url");

/**
 * Whether `given` is the signature of `message`, in constant time: bytes are compared with the
 * digest, text with its exact URL-safe spelling. Any other length is simply false.
 */
export function isSignature(secret: string, format: SigningFormat, message: Signable, given: Uint8Array | string): boolean {
  const expected = typeof given === "string" ? Buffer.from(textSignature(secret, format, message)) : signature(secret, format, message);
  const presented = typeof given === "string" ? Buffer.from(given) : given;
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

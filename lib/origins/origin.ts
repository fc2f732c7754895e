// Origins are compared exactly, in the browser's own serialisation: scheme://host[:port],
// lower-case host, punycode, default port dropped. No wildcards, no suffix matching.

// After the URL parser's punycode step a real host is letters, digits, dots and hyphens, or an
// IPv6 literal. Anything else (a "*" wildcard, "_") could never equal a browser's Origin.
const HOST = /^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/;

/** The canonical form of an http(s) origin (a trailing "/" is tolerated), or null. */
export function canonicalOrigin(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || url.search || url.hash || url.pathname !== "/") return null;
  if (!HOST.test(url.hostname)) return null;
  return url.origin;
}

/** True only for an Origin header that is already canonical: "HTTPS://Shop.example" is not. */
export function isCanonicalOrigin(header: string | null): header is string {
  return header !== null && canonicalOrigin(header) === header;
}

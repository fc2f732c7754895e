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

// Every widget request checks its Origin header, nearly always one of a few sites': the answers
// are kept rather than parsing a URL each time, in a bounded map emptied when full, for headers
// short enough to be an origin.
const REMEMBERED_ORIGINS = 1_000;
const REMEMBERED_LENGTH = 256;
const rememberedAnswers = new Map<string, boolean>();

/** True only for an Origin header that is already canonical: "HTTPS://Shop.example" is not. */
export function isCanonicalOrigin(header: string | null): header is string {
  if (header === null) return false;
  const remembered = rememberedAnswers.get(header);
  if (remembered !== undefined) return remembered;
  const canonical = canonicalOrigin(header) === header;
  if (header.length <= REMEMBERED_LENGTH) {
    if (rememberedAnswers.size >= REMEMBERED_ORIGINS) rememberedAnswers.clear();
    rememberedAnswers.set(header, canonical);
  }
  return canonical;
}

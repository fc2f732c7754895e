// @ts-check
// Requests the API never honours (decisions.md): Next.js's internal request headers, malformed
// percent-encoding, empty path segments, methods outside the API's set. Plain JavaScript, shared
// by the front of `npm start` (lib/runtime/front.mjs), which applies all of it before Next sees the
// request, and by proxy.ts, which covers what it can where Next itself is the server.

/**
 * Headers Next.js reads to change how it handles a request (flight/RSC navigation, prefetches,
 * server actions, data requests, its own middleware plumbing). They have no business on /api.
 */
export const NEXT_INTERNAL_HEADERS = Object.freeze([
  "rsc",
  "next-router-state-tree",
  "next-router-prefetch",
  "next-router-segment-prefetch",
  "next-hmr-refresh",
  "next-action",
  "next-url",
  "x-middleware-prefetch",
  "x-middleware-subrequest",
  "x-nextjs-data",
]);
const INTERNAL_PREFIXES = ["x-invoke-", "x-middleware-", "x-nextjs-"];
const INTERNAL_NAMES = new Set(NEXT_INTERNAL_HEADERS);

/** @param {string} name  a header name, any case */
export function isNextInternalHeader(name) {
  // Every internal name starts with r, n or x: most headers are let through on their first letter.
  const first = name.charCodeAt(0) | 0x20;
  if (first !== 0x72 && first !== 0x6e && first !== 0x78) return false;
  const lower = name.toLowerCase();
  return INTERNAL_NAMES.has(lower) || INTERNAL_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** The methods the service answers; anything else is refused before routing. */
export const ALLOWED_METHODS = Object.freeze(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * @typedef {{ status: 400 | 404, code: "invalid_request" | "not_found", message: string }} Refusal
 */

/**
 * Why this request is refused before routing, or null. `target` is the request target as sent
 * (origin-form: path and query).
 * @param {string | undefined} method
 * @param {string | undefined} target
 * @returns {Refusal | null}
 */
export function screenRequest(method, target) {
  if (!method || !ALLOWED_METHODS.includes(method)) {
    return { status: 404, code: "not_found", message: `${String(method).slice(0, 20)} is not supported.` };
  }
  return screenPath(target);
}

/**
 * @param {string | undefined} target
 * @returns {Refusal | null}
 */
export function screenPath(target) {
  if (!target || !target.startsWith("/")) return { status: 400, code: "invalid_request", message: "The request target must be a path." };
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  // An empty segment names nothing (a trailing slash is not one: the route answers it).
  if (path.includes("//")) return { status: 404, code: "not_found", message: "No such route: the path has an empty segment." };
  if (path.includes("%")) {
    try {
      decodeURIComponent(path);
    } catch {
      return { status: 400, code: "invalid_request", message: "The path is not valid percent-encoded UTF-8." };
    }
  }
  return null;
}

/**
 * Whether the path is under /api, as Next would route it (dot segments and percent-encoding
 * resolved). Only call after screenPath accepted it.
 * @param {string} target
 */
export function isApiPath(target) {
  // The usual case, decided without parsing: a plain path, inside or outside /api.
  if (!target.includes("%") && !target.includes("/.")) return target === "/api" || target.startsWith("/api/") || target.startsWith("/api?");
  let path;
  try {
    path = decodeURIComponent(new URL(target, "http://localhost").pathname);
  } catch {
    return true; // not decodable: treat as the API's, the stricter side
  }
  return path === "/api" || path.startsWith("/api/");
}

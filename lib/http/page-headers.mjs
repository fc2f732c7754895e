// @ts-check
import { publicOrigin } from "../core/env-schema.mjs";
import { SITE_WIDE_HEADERS } from "./wire.mjs";

// Every per-path header rule of the service, in one place. Two kinds:
// - STATIC_HEADER_RULES depend on nothing configurable: next.config.mjs hands them to Next, which
//   compiles them into the build;
// - the rules of `runtimePageHeaders` depend on the configuration (PUBLIC_URL, S3): proxy.ts sets
//   them on each request from the environment the server runs with, never the one `next build`
//   happened to see. proxy.ts's matcher lists their paths.
// The API's own headers come from the route pipeline (lib/http/respond.ts, wire.mjs).

/**
 * @typedef {import("zod").infer<typeof import("../core/env-schema.mjs").envSchema>} Env
 * @typedef {{ source: string, headers: ReadonlyArray<readonly [string, string]> }} HeaderRule  `source` in Next's headers() syntax
 */

/** Refuses every framing: old browsers read X-Frame-Options, current ones the CSP directive. */
/** @type {ReadonlyArray<readonly [string, string]>} */
const NO_FRAMING = [["X-Frame-Options", "DENY"]];

/**
 * /reference's policy: scripts, data and fonts from this service only. Scalar (Vue) writes its
 * styles into the page at run time, hence style-src 'unsafe-inline'; nothing for scripts.
 */
export const REFERENCE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

/**
 * The public help center's policy (app/help/): the pages are server-rendered HTML that work
 * without JavaScript (links and a GET form). Scripts: this service's own and Next's inline flight
 * payload, which the 404 page needs — Next renders a dynamic page's notFound() body only in the
 * browser (vercel/next.js#62228); article bodies can carry no script (lib/articles/render-markdown.ts).
 * Styles: its CSS file and the style attribute carrying the brand colour. Article images: https
 * only, as the renderer allows. Never framed; forms go only to this service; nothing else is fetched.
 */
export const HELP_CENTER_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src https:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

/** @type {ReadonlyArray<HeaderRule>} */
export const STATIC_HEADER_RULES = [
  { source: "/:path*", headers: SITE_WIDE_HEADERS },
  // The inbox (staff pages) must never be framed: clickjacking an operator's replies.
  { source: "/inbox/:path*", headers: [...NO_FRAMING, ["Content-Security-Policy", "frame-ancestors 'none'"]] },
  // The widget (scripts/build-widget.mjs): the loader keeps its name, so a short cache and the
  // ETag Next sends for public files; chunks are named by their content's hash, so forever.
  // The public help center: https images, nothing fetched elsewhere, never framed (SITE_WIDE_HEADERS adds nosniff and the referrer policy).
  { source: "/help/:path*", headers: [...NO_FRAMING, ["Content-Security-Policy", HELP_CENTER_CONTENT_SECURITY_POLICY]] },
  { source: "/widget.js", headers: [["Cache-Control", "public, max-age=300, must-revalidate"]] },
  { source: "/widget/:file*", headers: [["Cache-Control", "public, max-age=31536000, immutable"]] },
  // The API reference (lib/http/reference-page.mjs): everything from this service. Scalar's bundle
  // is named by its version, so forever.
  { source: "/reference", headers: [["Content-Security-Policy", REFERENCE_CONTENT_SECURITY_POLICY]] },
  { source: "/scalar/:file*", headers: [["Cache-Control", "public, max-age=31536000, immutable"]] },
];

/** The paths whose headers depend on the configuration (with and without the trailing slash: no redirect strips it). */
export const DEMO_PATHS = Object.freeze(["/demo", "/demo/"]);

/**
 * The headers the configuration decides for `pathname`, or null when it has none.
 * @param {string} pathname
 * @param {Env} env
 * @returns {ReadonlyArray<readonly [string, string]> | null}
 */
export function runtimePageHeaders(pathname, env) {
  if (!DEMO_PATHS.includes(pathname)) return null;
  return [...NO_FRAMING, ["Content-Security-Policy", demoContentSecurityPolicy(env)]];
}

/**
 * The demo page's Content-Security-Policy. Next.js inlines its bootstrap scripts and the widget
 * inlines its styles, hence 'unsafe-inline'; `next dev` also needs eval for fast refresh.
 * @param {Env} env
 */
export function demoContentSecurityPolicy(env) {
  const dev = env.NODE_ENV === "development";
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    // blob: the widget shows chat images from the bytes it fetched with the visitor token.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' ${uploadOrigins(env).join(" ")}`,
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/**
 * Where the demo page's widget may send requests besides its own origin: the service's public
 * origin (upload URLs are absolute on it) and, with S3 storage, the bucket's.
 * @param {Env} env
 */
function uploadOrigins(env) {
  const origins = new Set([publicOrigin(env)]);
  if (env.S3_BUCKET) {
    const endpoint = new URL(env.S3_ENDPOINT ?? `https://s3.${env.S3_REGION}.amazonaws.com`);
    origins.add(endpoint.origin);
    if (!env.S3_FORCE_PATH_STYLE) origins.add(`${endpoint.protocol}//${env.S3_BUCKET}.${endpoint.host}`);
  }
  return [...origins];
}

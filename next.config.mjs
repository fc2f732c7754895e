import { SITE_WIDE_HEADERS } from "./lib/http/wire.mjs";

// Where the demo page's widget may send requests besides its own origin: the service's public
// origin (upload URLs are absolute on it) and, with S3 storage, the bucket's. Read when the
// configuration loads — for `next build`, which fixes the headers below — so build with the same
// PUBLIC_URL / S3_* settings the server runs with.
/** @param {Record<string, string | undefined>} env */
function uploadOrigins(env) {
  const origins = new Set();
  /** @param {string} url */
  const originOf = (url) => {
    try {
      return new URL(url).origin;
    } catch {
      return null;
    }
  };
  origins.add(env.PUBLIC_URL ? originOf(env.PUBLIC_URL) : `http://localhost:${env.PORT || 3000}`);
  if (env.S3_BUCKET) {
    const region = env.S3_REGION || "us-east-1";
    const endpoint = env.S3_ENDPOINT ? new URL(env.S3_ENDPOINT) : new URL(`https://s3.${region}.amazonaws.com`);
    origins.add(endpoint.origin);
    if (env.S3_FORCE_PATH_STYLE !== "true" && env.S3_FORCE_PATH_STYLE !== "1") {
      origins.add(`${endpoint.protocol}//${env.S3_BUCKET}.${endpoint.host}`);
    }
  }
  origins.delete(null);
  return [...origins];
}

/**
 * The demo page's Content-Security-Policy. Next.js inlines its bootstrap scripts and the widget
 * inlines its styles, hence 'unsafe-inline'; `next dev` also needs eval for fast refresh.
 * @param {Record<string, string | undefined>} env
 */
export function demoContentSecurityPolicy(env = process.env) {
  const dev = env.NODE_ENV === "development";
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${uploadOrigins(env).join(" ")}`,
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules, not bundled.
  // Plain Node libraries, loaded from node_modules at run time rather than bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "pg-boss", "nodemailer"],
  // Migrations are read from disk at start; make sure serverless bundles carry them.
  outputFileTracingIncludes: { "/**": ["./prisma/migrations/**/*"] },
  // On Vercel the database is always PostgreSQL (lib/env.ts refuses to start without it), so no
  // function carries PGlite (about 19 MB of WebAssembly and data); lib/db.ts loads it only when used.
  ...(process.env.VERCEL
    ? { outputFileTracingExcludes: { "/**": ["**/node_modules/@electric-sql/pglite*{,/**}", "**/node_modules/pglite-prisma-adapter*{,/**}"] } }
    : {}),
  // `/api/.../messages/` must reach the route (not a 308 redirect): the API answers only documented statuses.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // proxy.ts must see the request's own headers: by default Next hides its flight (RSC) headers
  // from the proxy and puts them back afterwards, so the proxy could neither see nor remove them.
  skipProxyUrlNormalize: true,
  // No dev-mode badge over the pages (it sat on the demo's chat composer in screenshots).
  devIndicators: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: SITE_WIDE_HEADERS.map(([key, value]) => ({ key, value })),
      },
      {
        // With and without the trailing slash (no redirect strips it: see skipTrailingSlashRedirect).
        source: "/demo{/}?",
        headers: [
          { key: "Content-Security-Policy", value: demoContentSecurityPolicy() },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
      // The inbox is never framed by another page (clickjacking of replies and settings).
      {
        source: "/inbox/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
      // The widget (scripts/build-widget.mjs): the loader keeps its name, so a short cache and the
      // ETag Next sends for public files; chunks are named by their content's hash, so forever.
      { source: "/widget.js", headers: [{ key: "Cache-Control", value: "public, max-age=300, must-revalidate" }] },
      { source: "/widget/:file*", headers: [{ key: "Cache-Control", value: "public, max-age=31536000, immutable" }] },
    ];
  },
};

export default nextConfig;

import { networkInterfaces } from "node:os";
import { parseEnvOrExit } from "./lib/core/env-schema.mjs";
import { STATIC_HEADER_RULES } from "./lib/http/page-headers.mjs";

// The configuration, parsed as the app parses it (lib/core/env-schema.mjs): a bad value stops
// `next build` and `next dev` with the app's own message. Only what shapes the build is read
// here; whatever depends on where the server runs (PUBLIC_URL, S3) is applied at run time
// (proxy.ts, lib/http/page-headers.mjs).
const { VERCEL } = parseEnvOrExit(process.env);

/** Packages no Vercel function runs (scripts/trim-vercel-traces.mjs drops the same from the hook's trace). */
const NOT_ON_VERCEL_TRACES = ["**/node_modules/@electric-sql/pglite*{,/**}", "**/node_modules/pglite-prisma-adapter*{,/**}", "**/node_modules/smtp-server{,/**}"];

/**
 * This machine's own network addresses, as `next dev` compares hosts: it serves its scripts only to
 * pages opened from a host it knows, so without them the demo and the inbox never come alive when
 * opened at the "Network" address it prints (the demo seed allows the same origins, lib/seed).
 */
export function ownNetworkHosts(interfaces = networkInterfaces()) {
  return Object.values(interfaces)
    .flat()
    .filter((address) => address && !address.internal && !(address.family === "IPv6" && /^fe[89ab]/i.test(address.address)))
    .map((address) => (address.family === "IPv6" ? `[${address.address.toLowerCase()}]` : address.address));
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules, not bundled.
  // Plain Node libraries, loaded from node_modules at run time rather than bundled.
  // smtp-server too: left in node_modules, it can be kept out of Vercel's functions (below).
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "pg-boss", "nodemailer", "smtp-server"],
  // Metadata in the head, never streamed after the page: the inbox's title (an async
  // generateMetadata, for the unread count) was streamed, and a refresh (after every change made
  // on a page) left the document without a <title> for a moment, which axe reported. Resolving it
  // first costs nothing measurable: the layout computes the same unread count anyway.
  htmlLimitedBots: /.*/,
  // Migrations are read from disk at start; make sure serverless bundles carry them.
  outputFileTracingIncludes: { "/**": ["./prisma/migrations/**/*"] },
  // On Vercel the database is always PostgreSQL (the configuration refuses to start without it), so
  // no function carries PGlite (about 19 MB of WebAssembly and data); lib/db/client.ts loads it only when used.
  // Nor the inbound SMTP listener's server: lib/prepare-service.ts imports it only off Vercel, where
  // replies come by the provider route (its other dependencies, nodemailer and punycode.js, stay:
  // the senders and the inbound parsers use them).
  ...(VERCEL ? { outputFileTracingExcludes: { "/**": NOT_ON_VERCEL_TRACES } } : {}),
  // `/api/.../messages/` must reach the route (not a 308 redirect): the API answers only documented statuses.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // proxy.ts must see the request's own headers: by default Next hides its flight (RSC) headers
  // from the proxy and puts them back afterwards, so the proxy could neither see nor remove them.
  skipProxyUrlNormalize: true,
  // No dev-mode badge over the pages (it sat on the demo's chat composer in screenshots).
  devIndicators: false,
  // Read by `next dev` only.
  allowedDevOrigins: ownNetworkHosts(),
  async headers() {
    return STATIC_HEADER_RULES.map(({ source, headers }) => ({ source, headers: headers.map(([key, value]) => ({ key, value })) }));
  },
};

export default nextConfig;

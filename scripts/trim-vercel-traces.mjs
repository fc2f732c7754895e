// Part of `npm run vercel-build`, after `next build`: keeps PGlite and the inbound SMTP listener's
// server out of every Vercel function. On Vercel the database is always PostgreSQL (lib/core/env.ts
// refuses to start without DATABASE_URL), yet lib/db/client.ts can open PGlite, so file tracing
// finds it; the listener (smtp-server) is imported only off Vercel (lib/prepare-service.ts).
// next.config.mjs excludes both from the routes' traces; the instrumentation hook's trace is outside
// that option's reach, so this drops the same files from every trace Next wrote. Prints what it dropped.
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

const NOT_ON_VERCEL = /node_modules\/(@electric-sql\/pglite|pglite-prisma-adapter|smtp-server\/)/;
const serverDir = path.resolve(import.meta.dirname, "../.next/server");

let dropped = 0;
for (const entry of await readdir(serverDir, { recursive: true })) {
  if (!entry.endsWith(".nft.json")) continue;
  const file = path.join(serverDir, entry);
  const trace = JSON.parse(await readFile(file, "utf8"));
  const kept = trace.files.filter((/** @type {string} */ traced) => !NOT_ON_VERCEL.test(traced));
  if (kept.length === trace.files.length) continue;
  dropped += trace.files.length - kept.length;
  await writeFile(file, JSON.stringify({ ...trace, files: kept }));
}
console.log(`trim-vercel-traces: dropped ${dropped} files no Vercel function runs (PGlite, smtp-server) from the function traces`);

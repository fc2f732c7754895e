// Runs the Parley service for the browser tests: `next dev` (the current source, no build needed)
// on a fresh embedded database in a temporary folder, removed again when the run ends. With
// E2E_SERVER=production it is `npm start`'s server instead (scripts/start.mjs, after `npm run
// build`), so the widget also meets the front that serves its hot routes (CI runs both).
// Playwright starts this (playwright.config.ts, webServer) and stops it with SIGTERM.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

const port = process.env.PORT;
if (!port) throw new Error("service.mjs: PORT is required");

const dataDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-data-"));
const databaseUrl = process.env.E2E_DATABASE_URL;
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

const root = path.resolve(import.meta.dirname, "../../..");
const production = process.env.E2E_SERVER === "production";
// The widget is build output (public/widget.js, public/widget/): `npm run build` made it for the
// production server; for `next dev` it is built here from the current source.
if (!production) execFileSync(process.execPath, [path.join(root, "scripts/build-widget.mjs")], { stdio: "inherit" });
const command = production ? [path.join(root, "scripts/start.mjs")] : [nextBin, "dev", "--port", port];
const child = spawn(process.execPath, command, {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: production ? "production" : "development",
    DATA_DIR: dataDir,
    UPLOADS_DIR: path.join(dataDir, "uploads"),
    // A PostgreSQL run when asked for; embedded PGlite (seeding the demo site) otherwise.
    DATABASE_URL: databaseUrl ?? "",
    RATE_LIMITS: "off",
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
    NEXT_TELEMETRY_DISABLED: "1",
  },
});

let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  child.kill(signal);
  setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
child.on("exit", (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(stopping ? 0 : (code ?? 1));
});

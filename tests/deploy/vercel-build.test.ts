import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { databaseUrlFor, onServer, testDatabaseUrl } from "../support/postgres";

// "Deploys to Vercel", proven: the real Vercel CLI builds a copy of this checkout offline (a
// placeholder project link), running `npm run vercel-build` (migrate, next build, trim traces) as
// Vercel would, and the functions it writes are inspected. Runs in the PostgreSQL pass (the build
// migrates a database of its own). The CLI lives in .ci/vercel (about 360 MB, not a project
// dependency): `npm install --prefix .ci/vercel`; .ci/run installs it.

const ROOT = path.resolve(import.meta.dirname, "../..");
const VERCEL_CLI = path.join(ROOT, ".ci/vercel/node_modules/.bin/vercel");
const template = testDatabaseUrl();
const cliMissing = !existsSync(VERCEL_CLI);
if (template && cliMissing) {
  if (process.env.CI === "true") throw new Error(`The Vercel CLI is missing at ${VERCEL_CLI}: .ci/run installs it (npm install --prefix .ci/vercel)`);
  console.log("tests/deploy/vercel-build.test.ts skipped: install the Vercel CLI with `npm install --prefix .ci/vercel`");
}

/**
 * Limit per function (everything it carries, unzipped; Vercel allows 250 MB); before the trimming
 * work one function held 30 MB. Vercel groups routes into shared functions (the others are
 * symlinks to it): `api/[...path]` carries the union of many routes' chunks, 18.4 MB after round 3's
 * files, search, hours and the delivery round that every API route may run on Vercel (which brings
 * the email and webhook senders along), 26.9 MB with inbound email (mailauth, mailparser), single
 * sign-on, Web Push, audit, privacy and reports. The failure names the biggest packages.
 */
const MAX_FUNCTION_MB = 30;

interface Func {
  route: string;
  maxDuration?: number;
  files: string[];
  /** The biggest packages (or app folders) it carries, in MB: where to look when it grows. */
  largest: string[];
  bytes: number;
}

describe.runIf(template && !cliMissing)("a Vercel build (the real CLI, offline)", () => {
  const work = mkdtempSync(path.join(tmpdir(), "parley-vercel-"));
  const database = `parley_vercel_${randomBytes(4).toString("hex")}`;
  afterAll(async () => {
    rmSync(work, { recursive: true, force: true });
    await onServer(template!, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  });

  let functions: Func[] = [];

  test("builds, migrating its database as the release step", async () => {
    const tracked = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
      .split("\0")
      .filter((file) => file && !file.startsWith(".ci/vercel/") && existsSync(path.join(ROOT, file)));
    for (const file of tracked) cpSync(path.join(ROOT, file), path.join(work, file), { recursive: true });
    execFileSync("cp", ["-al", path.join(ROOT, "node_modules"), path.join(work, "node_modules")]);
    mkdirSync(path.join(work, ".vercel"));
    writeFileSync(path.join(work, ".vercel/project.json"), JSON.stringify({ projectId: "prj_placeholder", orgId: "team_placeholder", settings: { framework: "nextjs" } }));
    await onServer(template!, `CREATE DATABASE "${database}"`);

    const build = spawnSync(VERCEL_CLI, ["build", "--yes"], {
      cwd: work,
      encoding: "utf8",
      timeout: 480_000,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        VERCEL: "1",
        CI: "1",
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_ENV: "production",
        DATABASE_URL: databaseUrlFor(template!, database),
        ADMIN_TOKEN: "vercel-build-admin-token-0123456789",
        SECRET_KEY: "vercel-build-secret-key-0123456789abcdef",
        S3_BUCKET: "parley-files",
        PUBLIC_URL: "https://chat.example",
      },
    });
    expect(build.status, `${build.stdout}\n${build.stderr}`.slice(-4000)).toBe(0);
    expect(build.stdout + build.stderr).toMatch(/trim-vercel-traces: dropped \d+ files no Vercel function runs/);
    functions = readFunctions(path.join(work, ".vercel/output/functions"), work);
    expect(functions.length).toBeGreaterThan(0);
  }, 600_000);

  test("no function carries PGlite or smtp-server, and each stays small", () => {
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      // The package itself; a stub chunk that would require it at run time may remain (never run there).
      expect(fn.files.filter((file) => /node_modules\/(@electric-sql\/pglite|pglite-prisma-adapter)/.test(file)), fn.route).toEqual([]);
      // Nor the inbound SMTP listener's server: replies reach Vercel by the provider route.
      expect(fn.files.filter((file) => /node_modules\/smtp-server\//.test(file)), fn.route).toEqual([]);
      expect(fn.bytes / 1e6, `${fn.route} carries ${(fn.bytes / 1e6).toFixed(1)} MB: ${fn.largest.join(", ")}`).toBeLessThan(MAX_FUNCTION_MB);
    }
  });

  test("the long-poll route may run past the default duration (maxDuration 30 s)", () => {
    const messages = functions.find((fn) => fn.route === "api/v1/chat/visitor/messages");
    expect(messages?.maxDuration).toBe(30);
  });

  test("the cron that drains deliveries is in the build output, every minute, with its function", () => {
    const config = JSON.parse(readFileSync(path.join(work, ".vercel/output/config.json"), "utf8")) as { crons?: { path: string; schedule: string }[] };
    expect(config.crons).toEqual([{ path: "/api/v1/cron/dispatch", schedule: "* * * * *" }]);
    expect(functions.find((fn) => fn.route === "api/v1/cron/dispatch")?.maxDuration).toBe(60);
  });

  test("the migrations were applied by the build, not left to a cold start", async () => {
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: databaseUrlFor(template!, database) });
    await client.connect();
    try {
      const { rows } = await client.query<{ count: string }>(`SELECT count(*) FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`);
      expect(Number(rows[0]!.count)).toBe(readdirSync(path.join(ROOT, "prisma/migrations")).length);
    } finally {
      await client.end();
    }
  });
});

/** Every real (not symlinked) function of a Build Output API tree, with what it carries. */
function readFunctions(functionsDir: string, projectDir: string): Func[] {
  const found: Func[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (lstatSync(full).isSymbolicLink()) continue;
      if (!entry.endsWith(".func")) {
        if (statSync(full).isDirectory()) walk(full);
        continue;
      }
      const config = JSON.parse(readFileSync(path.join(full, ".vc-config.json"), "utf8")) as { maxDuration?: number; filePathMap?: Record<string, string> };
      const files = Object.keys(config.filePathMap ?? {});
      const byPackage = new Map<string, number>();
      for (const [target, source] of Object.entries(config.filePathMap ?? {})) {
        const file = path.isAbsolute(source) ? source : path.join(projectDir, source);
        const size = existsSync(file) ? statSync(file).size : 0;
        const owner = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(target)?.[1] ?? target.split("/").slice(0, 3).join("/");
        byPackage.set(owner, (byPackage.get(owner) ?? 0) + size);
      }
      const bytes = [...byPackage.values()].reduce((sum, size) => sum + size, 0);
      const largest = [...byPackage].sort((x, y) => y[1] - x[1]).slice(0, 8).map(([owner, size]) => `${owner} ${(size / 1e6).toFixed(1)}`);
      found.push({ route: path.relative(functionsDir, full).replace(/\.func$/, ""), maxDuration: config.maxDuration, files, bytes, largest });
    }
  };
  walk(functionsDir);
  return found;
}

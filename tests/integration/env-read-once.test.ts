import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ENV_NAMES } from "../../lib/core/env-schema.mjs";
import { ConfigError, parseEnv } from "../../lib/core/env";

// Issue 14: the environment is read once — one schema (lib/core/env-schema.mjs) parses it for the app
// (lib/core/env.ts), next.config.mjs and `npm start` (scripts/start.mjs), and nothing else reads it.

const ROOT = path.resolve(import.meta.dirname, "../..");
const PARSERS = new Set(["lib/core/env-schema.mjs", "lib/core/env.ts"]);
// Tools of their own, with their own variables (the bench, the tests) and generated code.
const OUTSIDE = ["node_modules", ".next", ".git", "lib/generated", "tests", "bench", "public", "widget", "tmp", ".data", ".ci"];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = dir ? `${dir}/${name}` : name;
    if (OUTSIDE.includes(relative) || name.startsWith(".")) return [];
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx|mjs|js)$/.test(name) && !/\.test\.ts$/.test(name) ? [relative] : [];
  });
}

/** Every service variable `source` reads from process.env directly (writes are not reads). */
function servicesVariablesRead(source: string): string[] {
  const read = new Set<string>();
  for (const match of source.matchAll(/process\.env(?:\.([A-Z_][A-Z0-9_]*)|\[["']([A-Z_][A-Z0-9_]*)["']\])(?!\s*=[^=])/g)) read.add((match[1] ?? match[2])!);
  for (const match of source.matchAll(/\{([^}]*)\}\s*=\s*process\.env\b/g)) for (const name of match[1]!.split(/[\s,:]+/)) read.add(name);
  if (/parseEnv(OrExit)?\(process\.env\)/.test(source)) return []; // reads it through the one parser
  return [...read].filter((name) => ENV_NAMES.includes(name));
}

const BAD = { PORT: "eighty", ADMIN_TOKEN: "short" };
const expectedMessage = (() => {
  try {
    parseEnv(BAD);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
  }
  throw new Error("the bad configuration was accepted");
})();

function run(args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, ...BAD };
  return spawnSync(process.execPath, args, { cwd: ROOT, env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
}

describe("the environment is read once", () => {
  test("no module but the parser reads a service variable from process.env", () => {
    const files = sourceFiles("");
    expect(files).toEqual(expect.arrayContaining(["next.config.mjs", "scripts/start.mjs", "proxy.ts", "lib/runtime/front.mjs", "lib/db/client.ts"]));
    const readers = files
      .filter((file) => !PARSERS.has(file))
      .map((file) => [file, servicesVariablesRead(readFileSync(path.join(ROOT, file), "utf8"))] as const)
      .filter(([, names]) => names.length > 0);
    expect(readers).toEqual([]);
  });

  test("the check above can fail: a direct read is found", () => {
    expect(servicesVariablesRead("const port = Number(process.env.PORT || 3000);")).toEqual(["PORT"]);
    expect(servicesVariablesRead('const { VERCEL, HOME } = process.env; const u = process.env["PUBLIC_URL"];')).toEqual(["PUBLIC_URL", "VERCEL"]);
    expect(servicesVariablesRead('process.env.NODE_ENV = "production";')).toEqual([]);
  });

  test("`npm start` refuses a bad configuration before Next loads, with the app's own message", () => {
    const start = run([path.join(ROOT, "scripts/start.mjs")]);
    expect(start.status).toBe(1);
    expect(start.stderr.trim()).toBe(expectedMessage);
    expect(expectedMessage).toMatch(/^Invalid configuration: .*ADMIN_TOKEN must be at least 16 characters/);
    expect(expectedMessage).toMatch(/[:;] PORT /);
  });

  test("next.config.mjs (so `next build` and `next dev`) refuses it with the same message", () => {
    const config = run(["--input-type=module", "-e", `await import(${JSON.stringify(path.join(ROOT, "next.config.mjs"))});`]);
    expect(config.status).toBe(1);
    expect(config.stderr.trim()).toBe(expectedMessage);
  });
});

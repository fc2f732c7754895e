import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

// Issue 9, item 9: tests that need PostgreSQL, Redis or Chromium skip locally with one printed line
// saying what to install, and fail the run under CI=true (tests/support/requires.ts), vitest and
// Playwright alike. Each case runs in a child process, as a test file or the Playwright runner would.

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const PLAYWRIGHT = path.join(ROOT, "node_modules/@playwright/test/cli.js");
const PROBE = path.join(ROOT, "tests/support/fixtures/requires-probe.ts");

function run(command: string[], env: Record<string, string | undefined>) {
  const childEnv: Record<string, string | undefined> = { ...process.env, CI: undefined, ...env };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  const result = spawnSync(process.execPath, command, { cwd: ROOT, env: childEnv as NodeJS.ProcessEnv, encoding: "utf8", timeout: 60_000 });
  const lines = (result.stderr ?? "").split("\n").filter((line) => line.trim() && !line.startsWith("npm warn"));
  return { status: result.status, stdout: result.stdout ?? "", lines };
}

const probe = (service: string, port: number | string, env: Record<string, string | undefined> = {}, executable = "") =>
  run([TSX, PROBE, service, String(port), executable], env);

let listening: Server;
let openPort: number;
// Not a freed ephemeral port: another test's listener may take that one meanwhile, and a connect
// to 127.0.0.1 can be given it as its own source port (a TCP self-connect). Nothing uses port 1.
const closedPort = 1;
beforeAll(async () => {
  listening = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  openPort = (listening.address() as { port: number }).port;
});
afterAll(() => new Promise((resolve) => listening.close(resolve)));

describe("requireService", () => {
  test("locally, a missing Redis skips with one line saying what to install", () => {
    const { status, stdout, lines } = probe("redis", closedPort);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual([false, false]);
    expect(lines).toHaveLength(1); // asked twice, said once
    expect(lines[0]).toMatch(new RegExp(`^skipped tests that need Redis .*nothing listens on 127\\.0\\.0\\.1:${closedPort}.*apt-get install redis-server`));
  });

  test("under CI=true, a missing Redis fails instead of skipping", () => {
    const { status, stdout, lines } = probe("redis", closedPort, { CI: "true" });
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(lines.join("\n")).toMatch(/^MissingServiceError: CI=true: tests that need Redis .* cannot run .*must not be skipped/);
  });

  test("a service that is there runs, silently, under CI or not", () => {
    for (const env of [{}, { CI: "true" }]) {
      const { status, stdout, lines } = probe("redis", openPort, env);
      expect({ status, result: JSON.parse(stdout), lines }).toEqual({ status: 0, result: [true, true], lines: [] });
    }
  });

  test("PostgreSQL: unreachable fails under CI; without TEST_DATABASE_URL it skips (CI's PostgreSQL pass runs those)", () => {
    expect(probe("postgres", closedPort, { CI: "true" }).status).toBe(1);
    const local = probe("postgres", closedPort);
    expect(local.status).toBe(0);
    expect(local.lines).toEqual([expect.stringMatching(/^skipped PostgreSQL-only tests .*TEST_DATABASE_URL=/)]);
    const unset = probe("postgres", "", { CI: "true", TEST_DATABASE_URL: undefined });
    expect(unset.status).toBe(0);
    expect(unset.lines).toEqual([expect.stringMatching(/^skipped PostgreSQL-only tests \(TEST_DATABASE_URL is not set\)/)]);
  });

  test("Chromium: missing skips locally and fails under CI", () => {
    const local = probe("chromium", "", {}, "/nonexistent/chromium");
    expect(local.status).toBe(0);
    expect(local.lines).toEqual([expect.stringMatching(/^skipped browser tests .*\/nonexistent\/chromium not found.*apt-get install chromium/)]);
    expect(probe("chromium", "", { CI: "true" }, "/nonexistent/chromium").status).toBe(1);
  });
});

describe("the browser half of npm test (playwright test --pass-with-no-tests)", () => {
  test("without Chromium: one line and success locally, failure under CI=true", { timeout: 90_000 }, () => {
    const command = [PLAYWRIGHT, "test", "--list", "--pass-with-no-tests"];
    const local = run(command, { CHROMIUM_PATH: "/nonexistent/chromium" });
    expect(local.status).toBe(0);
    expect(local.lines.filter((line) => line.startsWith("skipped"))).toEqual([expect.stringMatching(/^skipped browser tests .*\/nonexistent\/chromium not found/)]);
    const ci = run(command, { CHROMIUM_PATH: "/nonexistent/chromium", CI: "true" });
    expect(ci.status).not.toBe(0);
    expect(ci.lines.join("\n")).toContain("CI=true: browser tests (tests/e2e) cannot run");
  });
});

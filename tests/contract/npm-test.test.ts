import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";

// `npm test` runs both halves whatever the first one's result, and fails when either failed.
// A stand-in `npm` on PATH plays the two runners (the real ones would run the whole suite).

const root = path.resolve(__dirname, "../..");

function runWith(exitCodes: Record<string, number>) {
  const bin = mkdtempSync(path.join(tmpdir(), "fake-npm-"));
  const calls = path.join(bin, "calls");
  writeFileSync(calls, "");
  const codes = Object.entries(exitCodes).map(([script, code]) => `[ "$3" = "${script}" ] && exit ${code}`).join("\n");
  writeFileSync(path.join(bin, "npm"), `#!/bin/sh\necho "$3" >> "${calls}"\necho "runner $3 closing line"\n${codes}\nexit 0\n`);
  chmodSync(path.join(bin, "npm"), 0o755);
  const run = spawnSync(process.execPath, [path.join(root, "scripts/test.mjs")], {
    encoding: "utf8",
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
  });
  return { code: run.status, out: run.stdout, calls: readFileSync(calls, "utf8").trim().split("\n") };
}

test("npm test is the script that runs both halves", () => {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  expect(pkg.scripts.test).toBe("node scripts/test.mjs");
});

test("a failing vitest half still runs the browser half, keeps both closing lines, and fails", () => {
  const { code, out, calls } = runWith({ "test:unit": 1 });
  expect(calls).toEqual(["test:unit", "test:e2e"]);
  expect(out).toContain("runner test:unit closing line");
  expect(out).toContain("runner test:e2e closing line");
  expect(out).toMatch(/FAILED \(exit 1\)\s+vitest/);
  expect(out).toMatch(/passed\s+playwright/);
  expect(code).toBe(1);
});

test("a failing browser half fails the run; both passing passes it", () => {
  expect(runWith({ "test:e2e": 2 }).code).toBe(1);
  expect(runWith({}).code).toBe(0);
});

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { commitOf } from "../bench/commit";

// `npm run bench` names the commit it measured in its report; run from a release tarball or a
// copy (no git checkout), it once measured every scenario and then crashed writing the report.

describe("the bench report's commit (bench/commit.ts)", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "parley-bench-commit-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  test("is the checkout's short hash in a git checkout", () => {
    expect(commitOf(path.resolve(import.meta.dirname, ".."))).toMatch(/^[0-9a-f]{7,}$/);
  });

  test("is 'unknown' in a folder that is not a git checkout, without throwing or printing", () => {
    expect(commitOf(scratch)).toBe("unknown");
  });

  test("is 'unknown' in a repository without a commit", () => {
    const empty = path.join(scratch, "empty-repository");
    execFileSync("git", ["init", "-q", empty]);
    expect(commitOf(empty)).toBe("unknown");
  });

  test("is 'unknown' in a folder that does not exist", () => {
    expect(commitOf(path.join(scratch, "missing"))).toBe("unknown");
  });
});

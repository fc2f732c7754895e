import { execFileSync } from "node:child_process";

/**
 * The commit `dir` is checked out at (short hash) for the bench's report, or "unknown" where there
 * is none to name: a release tarball, a copy of the files, a repository without commits, no git.
 */
export function commitOf(dir: string): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return commit || "unknown";
  } catch {
    return "unknown";
  }
}

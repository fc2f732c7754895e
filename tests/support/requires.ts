import { existsSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

// Tests that need a server the embedded setup does not give (PostgreSQL, Redis) or a browser
// (Chromium). Locally such a test skips, and the run prints ONE line per missing service saying
// what to install; under CI (`CI=true`) a missing service fails the run instead, so nothing is
// silently lost. PostgreSQL-only tests are the exception by design: they run when
// TEST_DATABASE_URL is set (CI's second pass, `.ci/run`), and skip with the line otherwise.

export type Service = "postgres" | "redis" | "chromium";

const NEEDS: Record<Service, { what: string; install: string }> = {
  postgres: {
    what: "PostgreSQL-only tests",
    install: "apt-get install postgresql; createdb parley_scratch; TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/parley_scratch npm run test:unit",
  },
  redis: { what: "tests that need Redis on 127.0.0.1:6379", install: "apt-get install redis-server (and start it)" },
  chromium: { what: "browser tests (tests/e2e)", install: "apt-get install chromium, or set CHROMIUM_PATH" },
};

export interface Requirement {
  /** Where the service should listen (redis, postgres); defaults: 127.0.0.1:6379, TEST_DATABASE_URL. */
  host?: string;
  port?: number;
  /** The browser's executable (chromium); default CHROMIUM_PATH or /usr/bin/chromium. */
  executable?: string;
}

export const underCi = () => /^(1|true)$/i.test(process.env.CI ?? "");

export class MissingServiceError extends Error {
  override name = "MissingServiceError";
}

/** Is it there? Locally: false, with the one line; under CI: throws MissingServiceError. */
export async function requireService(service: Service, requirement: Requirement = {}): Promise<boolean> {
  const problem = await whatIsMissing(service, requirement);
  return problem === null ? true : missing(service, problem);
}

/** The browser check, synchronous for playwright.config.ts. */
export function requireBrowser(requirement: Requirement = {}): boolean {
  const executable = requirement.executable ?? chromiumPath();
  // Playwright evaluates its config once in the runner (then in workers, which have tests to run).
  return existsSync(executable) ? true : missing("chromium", `${executable} not found`, false);
}

export const chromiumPath = () => process.env.CHROMIUM_PATH || "/usr/bin/chromium";

async function whatIsMissing(service: Service, requirement: Requirement): Promise<string | null> {
  if (service === "chromium") return existsSync(requirement.executable ?? chromiumPath()) ? null : `${requirement.executable ?? chromiumPath()} not found`;
  if (service === "postgres") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url && requirement.port === undefined) return "TEST_DATABASE_URL is not set";
    const host = requirement.host ?? (url ? new URL(url).hostname : "127.0.0.1");
    const port = requirement.port ?? Number((url && new URL(url).port) || 5432);
    return (await isListening(host, port)) ? null : `nothing listens on ${host}:${port}`;
  }
  const host = requirement.host ?? "127.0.0.1";
  const port = requirement.port ?? 6379;
  return (await isListening(host, port)) ? null : `nothing listens on ${host}:${port}`;
}

function missing(service: Service, problem: string, once = true): false {
  const { what, install } = NEEDS[service];
  // By design, not a loss: CI runs the PostgreSQL-only tests in its PostgreSQL pass.
  const expected = service === "postgres" && problem === "TEST_DATABASE_URL is not set";
  if (underCi() && !expected) {
    throw new MissingServiceError(`CI=true: ${what} cannot run (${problem}) and must not be skipped. Install: ${install}`);
  }
  const line = `skipped ${what} (${problem}). To run them: ${install}`;
  if (once) sayOnce(service, line);
  else writeSync(2, `${line}\n`);
  return false;
}

/**
 * One line per service per run: test files run in child processes of one runner, so the line is
 * claimed with a marker file named after that runner. Written to fd 2 directly: the test runner
 * would otherwise add a header line of its own.
 */
function sayOnce(service: Service, line: string): void {
  const marker = path.join(tmpdir(), `parley-requires-${runnerId()}-${service}`);
  try {
    writeFileSync(marker, line, { flag: "wx" });
  } catch {
    return; // another file of this run said it already
  }
  writeSync(2, `${line}\n`);
}

/**
 * The runner's pid and, on Linux, its start time: pids are reused (32,768 of them in a CI
 * container), and a marker left by an earlier process with the same pid silenced the line.
 */
function runnerId(): string {
  try {
    const stat = readFileSync(`/proc/${process.ppid}/stat`, "utf8");
    const startTime = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    return `${process.ppid}-${startTime}`;
  } catch {
    return String(process.ppid);
  }
}

export function isListening(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (listening: boolean) => {
      socket.destroy();
      resolve(listening);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { createServer, connect, type Socket } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

// The service as it really runs, for tests that must meet the real server rather than handlers
// called in-process: `npm start` (scripts/start.mjs: the front before Next) or `next start`, on
// the current build. CI builds before `npm test`; locally, without a build, these tests skip
// with one line, and in CI a missing build fails the run.

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Whether `.next` holds a production build; in CI a missing one is an error, not a skip. */
export function productionBuildExists(): boolean {
  if (existsSync(path.join(ROOT, ".next/BUILD_ID"))) return true;
  if (process.env.CI === "true") throw new Error("No production build in .next: run npm run build before the tests.");
  console.log("run npm run build first (tests against the production server skipped)");
  return false;
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningServer {
  port: number;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  /** Sends the server process a signal (SIGTERM: a graceful shutdown). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves with the exit code (null when a signal killed it) once the process has exited. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export const TEST_ADMIN = "production-test-admin-token-0123456789";

/** Starts `npm start` ("front") or `next start` ("next") on a fresh embedded database. */
export async function startServer(mode: "front" | "next", env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-prod-test-"));
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const command = mode === "front" ? [path.join(ROOT, "scripts/start.mjs")] : [nextBin, "start", "--port", String(port)];
  const child: ChildProcess = spawn(process.execPath, command, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOSTNAME: "",
      DATA_DIR: dataDir,
      UPLOADS_DIR: path.join(dataDir, "uploads"),
      DATABASE_URL: "",
      ADMIN_TOKEN: TEST_ADMIN,
      LOG_LEVEL: "warn",
      RATE_LIMITS: "on",
      TRUSTED_PROXY_HOPS: "0",
      UPSTASH_REDIS_REST_URL: "",
      UPSTASH_REDIS_REST_TOKEN: "",
      KV_REST_API_URL: "",
      KV_REST_API_TOKEN: "",
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  child.stdout!.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(killer);
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (const giveUpAt = Date.now() + 90_000; ; ) {
    if (child.exitCode !== null) throw new Error(`the server exited at start:\n${printed}`);
    if ((await send(port, "GET", "/widget.js").catch(() => null))?.status === 200) break;
    if (Date.now() > giveUpAt) {
      await stop();
      throw new Error(`the server did not start in time:\n${printed}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { port, output: () => printed, kill: (signal) => void child.kill(signal), exited, stop };
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  json: any;
}

export interface SendOptions {
  headers?: Record<string, string>;
  body?: string;
  /** The client address to send from (127.0.0.2, 127.0.0.3, …: all loopback on Linux). */
  from?: string;
}

/** One request on a fresh connection. */
export function send(port: number, method: string, target: string, options: SendOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method, path: target, headers: options.headers, localAddress: options.from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks).toString();
          let json: unknown;
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode!, headers: res.headers, body, json });
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A raw TCP connection, for requests an HTTP client will not send (slow, malformed). */
export async function rawConnection(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  const socket = connect(port, "127.0.0.1");
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const openedAt = Date.now();
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now() - openedAt)));
  return { socket, received: () => received, closed };
}

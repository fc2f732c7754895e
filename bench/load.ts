import http from "node:http";
import { ascending, percentile } from "./stats";

// A closed-loop load generator: `connections` workers each send a request, wait for the whole
// answer, and send the next, until the time is up. Latencies are kept whole for exact percentiles.

export interface RequestSpec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface Answer {
  status: number;
  body: string;
  /** The first try went out on a kept-alive connection the server had just closed (see `send`). */
  retriedStaleConnection: boolean;
}

/**
 * One request. A GET that fails because its reused keep-alive connection was closed by the server
 * at that very moment (the server's idle timeout racing the reuse) is sent again once, on a new
 * connection, as browsers do; the answer says so.
 */
export async function send(port: number, spec: RequestSpec, agent: http.Agent, signal?: AbortSignal): Promise<Answer> {
  try {
    return await sendOnce(port, spec, agent, signal);
  } catch (error) {
    if (!(error instanceof StaleConnection)) throw error;
    if (spec.method !== "GET") throw error.cause;
    return { ...(await sendOnce(port, spec, agent, signal)), retriedStaleConnection: true };
  }
}

class StaleConnection extends Error {}

function sendOnce(port: number, spec: RequestSpec, agent: http.Agent, signal?: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...spec.headers };
    if (spec.body !== undefined) headers["Content-Length"] = Buffer.byteLength(spec.body);
    const request = http.request({ host: "127.0.0.1", port, method: spec.method, path: spec.path, headers, agent, signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString(), retriedStaleConnection: false }));
      response.on("error", reject);
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
      reject(stale ? new StaleConnection("stale keep-alive connection", { cause: error }) : error);
    });
    request.end(spec.body);
  });
}

interface LoadOptions {
  port: number;
  connections: number;
  durationMs: number;
  next: (worker: number, iteration: number) => RequestSpec;
  /**
   * The clients' connections, kept from one call to the next (see `keptConnections`); without it,
   * the loop opens its own and closes them at the end.
   */
  agent?: http.Agent;
}

/**
 * Connections for several closed loops against one server (a warm-up, then the measured slices):
 * a closed loop's clients keep theirs. Opening 64 anew at every slice measured the server's accept
 * rate instead: Node 20's libuv accepts one connection per event-loop turn (docs/performance.md,
 * step 27).
 */
export const keptConnections = (connections: number) =>
  // Idle ones are closed after 4 s, before the server's keep-alive timeout (5 s) could close one
  // under a request.
  new http.Agent({ keepAlive: true, maxSockets: connections, timeout: 4_000 });

/** What one closed loop saw, before it is summed up: several may be merged (mergeLoads). */
export interface LoadSamples {
  latencies: number[];
  elapsedMs: number;
  errors: number;
  non2xx: number;
}

export async function closedLoop(options: LoadOptions): Promise<LoadResult> {
  return summarize([await closedLoopSamples(options)]);
}

/** `connections` clients, each sending its next request as soon as the last one is answered. */
export async function closedLoopSamples(options: LoadOptions): Promise<LoadSamples> {
  const agent = options.agent ?? keptConnections(options.connections);
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const startedAt = performance.now();
  const deadline = startedAt + options.durationMs;
  await Promise.all(
    Array.from({ length: options.connections }, async (_, worker) => {
      for (let iteration = 0; performance.now() < deadline; iteration++) {
        const sentAt = performance.now();
        try {
          const answer = await send(options.port, options.next(worker, iteration), agent);
          if (answer.status < 200 || answer.status >= 300) non2xx++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - sentAt);
      }
    }),
  );
  const elapsedMs = performance.now() - startedAt;
  if (!options.agent) agent.destroy();
  return { latencies, elapsedMs, errors, non2xx };
}

/** Requests per second and percentiles over all the loops' samples, as if they were one loop. */
export function summarize(loops: LoadSamples[]): LoadResult {
  const sorted = ascending(loops.flatMap((loop) => loop.latencies));
  const elapsedMs = loops.reduce((sum, loop) => sum + loop.elapsedMs, 0);
  return {
    requests: sorted.length,
    rps: Math.round((sorted.length / elapsedMs) * 1000),
    p50: round(percentile(sorted, 0.5)),
    p99: round(percentile(sorted, 0.99)),
    errors: loops.reduce((sum, loop) => sum + loop.errors, 0),
    non2xx: loops.reduce((sum, loop) => sum + loop.non2xx, 0),
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

import { spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { send } from "./load";
import { ascending, percentile } from "./stats";
import { BENCH_MEMBER, type Widget } from "./seed";
import type { HoldersResult, HoldersStart } from "./widget-holders";

// N open widgets (bench/widget-holders.ts, in as many processes as the open-file limit needs),
// while a writer posts staff replies into random conversations at a steady rate, through every
// server instance in turn. Delivery latency is the time from the reply's created_at (stored,
// server clock, same machine) to the visitor's long-poll answering with it.

export interface OpenWidgetsResult {
  widgets: number;
  replies: number;
  delivered: number;
  p50: number;
  p99: number;
  errors: number;
  /** Errors by cause: an HTTP status or a socket error code. */
  errorCauses: Record<string, number>;
  polls: number;
  presencePolls: number;
  /** GETs sent again because their kept-alive connection was closed as they went out (not errors). */
  staleConnectionRetries: number;
  /** Load-generator processes and server instances the widgets were spread over. */
  processes: number;
  instances: number;
}

export async function openWidgets(options: {
  ports: number[];
  widgets: Widget[];
  adminToken: string;
  repliesPerSecond: number;
  rampMs: number;
  measureMs: number;
  /** Widgets per load-generator process (each socket is an open file). */
  widgetsPerProcess: number;
  localAddresses: string[];
}): Promise<OpenWidgetsResult> {
  const processes = Math.ceil(options.widgets.length / options.widgetsPerProcess);
  const slice = Math.ceil(options.widgets.length / processes);
  const children = Array.from({ length: processes }, (_, k) => {
    // Through bash to raise the open-file limit to the hard one first (each socket is a file).
    const holders = path.join(import.meta.dirname, "widget-holders.ts");
    const child = spawn("bash", ["-c", 'ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"', process.execPath, "--import", "tsx", holders], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const start: HoldersStart = {
      widgets: options.widgets.slice(k * slice, (k + 1) * slice),
      // Widget i of process k is widget k·slice + i overall: the same instance and address it would have alone.
      ports: rotate(options.ports, (k * slice) % options.ports.length),
      localAddresses: rotate(options.localAddresses, (k * slice) % options.localAddresses.length),
      rampMs: options.rampMs,
    };
    child.send(start);
    return child;
  });
  const next = (child: (typeof children)[number]) => new Promise<unknown>((resolve) => child.once("message", resolve));
  await Promise.all(children.map(next)); // "held"
  for (const child of children) child.send("measure");

  let replies = 0;
  const writeErrors: Record<string, number> = {};
  const countWriteError = (cause: string) => (writeErrors[cause] = (writeErrors[cause] ?? 0) + 1);
  // Idle connections are closed before the server's keep-alive timeout (5 s) can close them under
  // a reply going out on one: Node's agent takes the server's `Keep-Alive: timeout=` hint (less a
  // second) only when a timeout is set. A reply is a POST, which is never sent twice.
  const writerAgent = new http.Agent({ keepAlive: true, maxSockets: 16, timeout: 4_000 });
  const interval = 1000 / options.repliesPerSecond;
  const writerDeadline = Date.now() + options.measureMs;
  const writes: Promise<unknown>[] = [];
  while (Date.now() < writerDeadline) {
    const target = options.widgets[Math.floor(Math.random() * options.widgets.length)]!;
    writes.push(
      send(
        options.ports[replies % options.ports.length]!,
        {
          method: "POST",
          path: `/api/v1/admin/conversations/${target.conversationId}/messages`,
          headers: { Authorization: `Bearer ${options.adminToken}`, "Content-Type": "application/json" },
          body: JSON.stringify({ author_id: BENCH_MEMBER, body: `Reply ${replies}` }),
        },
        writerAgent,
      ).then(
        (answer) => answer.status !== 201 && countWriteError(`reply ${answer.status}`),
        (error: { code?: string }) => countWriteError(`reply ${error.code ?? error}`),
      ),
    );
    replies++;
    await sleep(interval);
  }
  await Promise.all(writes);
  writerAgent.destroy();
  await sleep(1_500); // the last replies' deliveries
  const results = await Promise.all(
    children.map((child) => {
      const result = next(child) as Promise<HoldersResult>;
      child.send("stop");
      return result;
    }),
  );
  const errorCauses = { ...writeErrors };
  for (const result of results) for (const [cause, n] of Object.entries(result.errorCauses)) errorCauses[cause] = (errorCauses[cause] ?? 0) + n;
  const sorted = ascending(results.flatMap((result) => result.latencies));
  const sum = (pick: (result: HoldersResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  return {
    widgets: options.widgets.length,
    replies,
    delivered: sorted.length,
    p50: Math.round(percentile(sorted, 0.5)),
    p99: Math.round(percentile(sorted, 0.99)),
    errors: Object.values(errorCauses).reduce((a, b) => a + b, 0),
    errorCauses,
    polls: sum((r) => r.polls),
    presencePolls: sum((r) => r.presencePolls),
    staleConnectionRetries: sum((r) => r.staleConnectionRetries),
    processes,
    instances: options.ports.length,
  };
}

const rotate = <T>(list: T[], by: number) => [...list.slice(by), ...list.slice(0, by)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

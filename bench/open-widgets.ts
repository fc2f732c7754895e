import { setMaxListeners } from "node:events";
import http from "node:http";
import { percentile, send } from "./load";
import { BENCH_MEMBER, BENCH_ORIGIN, type Widget } from "./seed";

// N open widgets as the widget behaves: each holds a long-poll (?wait=25) and re-issues it as soon
// as it answers; 10 % also poll presence every 3 s (their panel is open). Meanwhile a writer posts
// staff replies into random conversations at a steady rate. Delivery latency is the time from
// the reply's created_at (stored, server clock) to the visitor's long-poll answering with it.

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
}

export async function openWidgets(options: {
  port: number;
  widgets: Widget[];
  adminToken: string;
  repliesPerSecond: number;
  rampMs: number;
  measureMs: number;
}): Promise<OpenWidgetsResult> {
  // Each widget is its own browser: its own kept-alive connections (at most 6, as browsers allow
  // per origin), never another widget's.
  const agents = new Map(options.widgets.map((widget) => [widget, new http.Agent({ keepAlive: true, maxSockets: 6 })]));
  const latencies: number[] = [];
  let errors = 0;
  const errorCauses: Record<string, number> = {};
  const countError = (cause: unknown) => {
    errors++;
    const key = cause instanceof HttpStatus ? String(cause.status) : String((cause as { code?: string })?.code ?? cause);
    errorCauses[key] = (errorCauses[key] ?? 0) + 1;
  };
  let polls = 0;
  let presencePolls = 0;
  let staleConnectionRetries = 0;
  let running = true;
  const stopped = new AbortController(); // ends the held requests when the run is over
  setMaxListeners(0, stopped.signal); // one listener per request in flight
  let measuring = false;
  const visitorHeaders = (token: string) => ({ Origin: BENCH_ORIGIN, Authorization: `Bearer ${token}` });

  async function holdLongPoll(widget: Widget): Promise<void> {
    while (running) {
      try {
        const answer = await send(
          options.port,
          { method: "GET", path: `/api/v1/chat/visitor/messages?cursor=${widget.cursor}&wait=25`, headers: visitorHeaders(widget.token) },
          agents.get(widget)!,
          stopped.signal,
        );
        const receivedAt = Date.now();
        if (answer.retriedStaleConnection) staleConnectionRetries++;
        if (answer.status !== 200) throw new HttpStatus(answer.status);
        polls++;
        const page = JSON.parse(answer.body).result;
        for (const item of page.items) {
          if (measuring && item.author_type === "staff") latencies.push(receivedAt - Date.parse(item.created_at));
        }
        widget.cursor = page.next_cursor;
      } catch (error) {
        if (!running) return;
        if (measuring) countError(error);
        await sleep(1_000);
      }
    }
  }

  async function pollPresence(widget: Widget): Promise<void> {
    await sleep(Math.random() * 3_000);
    while (running) {
      try {
        const answer = await send(options.port, { method: "GET", path: "/api/v1/chat/visitor/presence", headers: visitorHeaders(widget.token) }, agents.get(widget)!, stopped.signal);
        if (answer.retriedStaleConnection) staleConnectionRetries++;
        if (answer.status !== 200) throw new HttpStatus(answer.status);
        presencePolls++;
      } catch (error) {
        if (running && measuring) countError(error);
      }
      await sleep(3_000);
    }
  }

  const loops: Promise<void>[] = [];
  const perWidget = options.rampMs / options.widgets.length;
  for (const [index, widget] of options.widgets.entries()) {
    loops.push(holdLongPoll(widget));
    if (index % 10 === 0) loops.push(pollPresence(widget));
    if (index % 100 === 99) await sleep(perWidget * 100);
  }
  await sleep(2_000); // let the last held requests settle

  measuring = true;
  let replies = 0;
  const writerAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const interval = 1000 / options.repliesPerSecond;
  const writerDeadline = Date.now() + options.measureMs;
  const writes: Promise<unknown>[] = [];
  while (Date.now() < writerDeadline) {
    const target = options.widgets[Math.floor(Math.random() * options.widgets.length)]!;
    writes.push(
      send(
        options.port,
        {
          method: "POST",
          path: `/api/v1/admin/conversations/${target.conversationId}/messages`,
          headers: { Authorization: `Bearer ${options.adminToken}`, "Content-Type": "application/json" },
          body: JSON.stringify({ author_id: BENCH_MEMBER, body: `Reply ${replies}` }),
        },
        writerAgent,
      ).then(
        (answer) => {
          if (answer.status !== 201) countError(new HttpStatus(answer.status));
        },
        countError,
      ),
    );
    replies++;
    await sleep(interval);
  }
  await Promise.all(writes);
  await sleep(1_500); // the last replies' deliveries
  measuring = false;
  running = false;
  stopped.abort();
  for (const agent of agents.values()) agent.destroy();
  writerAgent.destroy();
  await Promise.allSettled(loops);
  const sorted = Float64Array.from(latencies).sort();
  return {
    widgets: options.widgets.length,
    replies,
    delivered: latencies.length,
    p50: Math.round(percentile(sorted, 0.5)),
    p99: Math.round(percentile(sorted, 0.99)),
    errors,
    errorCauses,
    polls,
    presencePolls,
    staleConnectionRetries,
  };
}

class HttpStatus {
  constructor(readonly status: number) {}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

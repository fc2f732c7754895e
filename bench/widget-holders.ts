import { setMaxListeners } from "node:events";
import http from "node:http";
import { send } from "./load";
import { BENCH_ORIGIN, type Widget } from "./seed";

// One process of open widgets (bench/open-widgets.ts forks several: a process may hold only so many
// sockets). Each widget behaves as the widget does: it holds a long-poll (?wait=25) and re-issues
// it as soon as it answers; 10 % also poll presence every 3 s (their panel is open). Each widget
// is its own browser: its own kept-alive connections (at most 6, as browsers allow per origin),
// from one of several loopback source addresses so client ports do not run out, to one of the
// server instances. Messages from the parent: {start}, "measure", "stop"; answers "held", then
// the result.

export interface HoldersStart {
  widgets: Widget[];
  ports: number[];
  localAddresses: string[];
  rampMs: number;
}

export interface HoldersResult {
  /** Delivery latencies of staff replies received while measuring, in ms. */
  latencies: number[];
  errorCauses: Record<string, number>;
  polls: number;
  presencePolls: number;
  staleConnectionRetries: number;
}

class HttpStatus {
  constructor(readonly status: number) {}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function hold({ widgets, ports, localAddresses, rampMs }: HoldersStart): Promise<void> {
  const result: HoldersResult = { latencies: [], errorCauses: {}, polls: 0, presencePolls: 0, staleConnectionRetries: 0 };
  let running = true;
  let measuring = false;
  let measuringSince = Infinity;
  const stopped = new AbortController(); // ends the held requests when the run is over
  setMaxListeners(0, stopped.signal); // one listener per request in flight
  const rampErrors: Record<string, number> = {}; // reported on stderr: why a ramp went badly
  const countError = (cause: unknown) => {
    if (!running) return;
    const key = cause instanceof HttpStatus ? String(cause.status) : String((cause as { code?: string })?.code ?? cause);
    const counts = measuring ? result.errorCauses : rampErrors;
    counts[key] = (counts[key] ?? 0) + 1;
  };
  const agents = widgets.map(
    (_, i) => new http.Agent({ keepAlive: true, maxSockets: 6, localAddress: localAddresses[i % localAddresses.length] }),
  );
  const visitorHeaders = (token: string) => ({ Origin: BENCH_ORIGIN, Authorization: `Bearer ${token}` });

  async function holdLongPoll(widget: Widget, i: number): Promise<void> {
    const port = ports[i % ports.length]!;
    while (running) {
      try {
        const path = `/api/v1/chat/visitor/messages?cursor=${widget.cursor}&wait=25`;
        const answer = await send(port, { method: "GET", path, headers: visitorHeaders(widget.token) }, agents[i]!, stopped.signal);
        const receivedAt = Date.now();
        if (answer.retriedStaleConnection) result.staleConnectionRetries++;
        if (answer.status !== 200) throw new HttpStatus(answer.status);
        result.polls++;
        const page = JSON.parse(answer.body).result;
        for (const item of page.items) {
          const createdAt = Date.parse(item.created_at);
          // Only this run's replies: an earlier run's, to a widget whose cursor was behind, are not deliveries.
          if (measuring && item.author_type === "staff" && createdAt >= measuringSince) result.latencies.push(receivedAt - createdAt);
        }
        widget.cursor = page.next_cursor;
      } catch (error) {
        if (!running) return;
        countError(error);
        await sleep(1_000);
      }
    }
  }

  async function pollPresence(widget: Widget, i: number): Promise<void> {
    const port = ports[i % ports.length]!;
    await sleep(Math.random() * 3_000);
    while (running) {
      try {
        const answer = await send(port, { method: "GET", path: "/api/v1/chat/visitor/presence", headers: visitorHeaders(widget.token) }, agents[i]!, stopped.signal);
        if (answer.retriedStaleConnection) result.staleConnectionRetries++;
        if (answer.status !== 200) throw new HttpStatus(answer.status);
        result.presencePolls++;
      } catch (error) {
        countError(error);
      }
      await sleep(3_000);
    }
  }

  const rampStartedAt = Date.now();
  const loops: Promise<void>[] = [];
  const perHundred = (rampMs / widgets.length) * 100;
  for (const [i, widget] of widgets.entries()) {
    loops.push(holdLongPoll(widget, i));
    if (i % 10 === 0) loops.push(pollPresence(widget, i));
    if (i % 100 === 99) await sleep(perHundred);
  }
  await sleep(2_000); // let the last held requests settle
  const seconds = ((Date.now() - rampStartedAt) / 1000).toFixed(1);
  process.stderr.write(`widget holders (pid ${process.pid}): ${widgets.length} widgets opened in ${seconds} s; errors meanwhile ${JSON.stringify(rampErrors)}\n`);
  process.send!("held");
  process.on("message", async (message) => {
    if (message === "measure") {
      measuring = true;
      measuringSince = Date.now() - 1_000; // the writer starts after this message; clocks are the same machine's
    }
    if (message !== "stop") return;
    measuring = false;
    running = false;
    stopped.abort();
    for (const agent of agents) agent.destroy();
    await Promise.allSettled(loops);
    process.send!(result, () => process.exit(0));
  });
}

process.once("message", (start: HoldersStart) => void hold(start));

import { BENCH_ORIGIN, type Widget } from "./seed";
import { type Answer, WidgetConnection } from "./widget-connection";

// One process of open widgets (bench/open-widgets.ts forks several: a process may hold only so many
// sockets). Each widget behaves as the widget does: it holds a long-poll (?wait=25) and re-issues
// it as soon as it answers; for 10 % (their panel is open) that long-poll also carries staff
// typing (&presence=<the newest expires_at seen>: the server also answers when typing changes),
// instead of a presence poll every 3 s beside it, as before. Each widget is its own browser: its
// own kept-alive connection for the long-poll (bench/widget-connection.ts), from one of several
// loopback source addresses so client ports do not run out, to one of the server instances. After a 429 or 503 a widget sends nothing until
// Retry-After has passed (5 s without one), as the widget does. Messages from the parent: {start},
// "measure", "stop"; answers "held", then the result.

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
  /** Of those, the long-polls of open panels, which carry presence. */
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
  const rampErrors: Record<string, number> = {}; // reported on stderr: why a ramp went badly
  const countError = (cause: unknown) => {
    if (!running) return;
    const key = cause instanceof HttpStatus ? String(cause.status) : String((cause as { code?: string })?.code ?? cause);
    const counts = measuring ? result.errorCauses : rampErrors;
    counts[key] = (counts[key] ?? 0) + 1;
  };
  const connections: WidgetConnection[] = [];
  const connect = (i: number) => {
    const connection = new WidgetConnection(ports[i % ports.length]!, localAddresses[i % localAddresses.length]!);
    connections.push(connection);
    return connection;
  };
  /** Per widget: no request before this time (Retry-After of a 429 or 503), as the widget's `holdUntil`. */
  const holdUntil = new Float64Array(widgets.length);
  const visitorHeaders = (token: string) => ["Origin", BENCH_ORIGIN, "Authorization", `Bearer ${token}`];
  const checkStatus = (i: number, answer: Answer) => {
    if (answer.retriedStaleConnection) result.staleConnectionRetries++;
    if (answer.status === 429 || answer.status === 503) holdUntil[i] = Date.now() + (answer.retryAfter || 5) * 1e3;
    if (answer.status !== 200) throw new HttpStatus(answer.status);
  };

  async function holdLongPoll(widget: Widget, i: number, panelOpen: boolean): Promise<void> {
    const connection = connect(i);
    const headers = visitorHeaders(widget.token);
    let seenPresence = 0; // the newest expires_at of the presence entries answered (epoch ms)
    while (running) {
      if (holdUntil[i]! > Date.now()) await sleep(holdUntil[i]! - Date.now());
      try {
        const typing = panelOpen ? `&presence=${seenPresence}` : "";
        const answer = await connection.get(`/api/v1/chat/visitor/messages?cursor=${widget.cursor}&wait=25${typing}`, headers);
        const receivedAt = Date.now();
        checkStatus(i, answer);
        result.polls++;
        const page = JSON.parse(answer.body).result;
        if (panelOpen) {
          result.presencePolls++;
          for (const entry of page.presence) seenPresence = Math.max(seenPresence, Date.parse(entry.expires_at));
        }
        for (const item of page.items) {
          const createdAt = Date.parse(item.created_at);
          // Only this run's replies: an earlier run's, to a widget whose cursor was behind, are not deliveries.
          if (measuring && item.author_type === "staff" && createdAt >= measuringSince) result.latencies.push(receivedAt - createdAt);
        }
        widget.cursor = page.next_cursor;
      } catch (error) {
        if (!running) return;
        countError(error);
        if (holdUntil[i]! <= Date.now()) await sleep(1_000); // else held until Retry-After has passed
      }
    }
  }

  const rampStartedAt = Date.now();
  const perHundred = (rampMs / widgets.length) * 100;
  for (const [i, widget] of widgets.entries()) {
    void holdLongPoll(widget, i, i % 10 === 0);
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
    // The loops end at their next request; those still waiting out a Retry-After (which may be
    // long) are not waited for: nothing they do from here on is counted.
    await Promise.allSettled(connections.map((connection) => connection.close()));
    process.send!(result, () => process.exit(0));
  });
}

process.once("message", (start: HoldersStart) => void hold(start));

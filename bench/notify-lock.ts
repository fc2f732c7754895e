// npm run bench:notify-lock — the notification lock (issue #43 item 3, docs/performance.md, "The
// notification lock"). PostgreSQL serialises the commits of every transaction that NOTIFYs (one
// instance-wide lock, taken in PreCommit_Notify and held to the end of the commit: "queue entries
// appear in commit order"). This measures visitor sends over HTTP against N `npm start` instances
// on one database, C closed-loop senders (each its own conversation), for S seconds per cell, with
// the NOTIFYs and without them, and samples PostgreSQL's wait events meanwhile. Beside the load, a
// probe times delivery: a widget's long-poll held on the first instance and an inbox event stream
// on the first instance, each receiving a visitor message sent through the last instance.
//
//   npm run bench:notify-lock -- --instances 1,2,4 --senders 64,128,256 --notify on,off --seconds 10
//   npm run bench:notify-lock -- --instances 1,2 --rates 100,200,400 --notify on --seconds 20
//
// `--senders` are closed loops (each sends again once answered: they find the saturation point);
// `--rates` are open loops of R sends a second in all, whether or not the earlier ones came back
// (a site's visitors do not wait for each other), spread over 128 conversations: delivery at a
// load below saturation, where a queue does not stand in for it.
//
// `--notify off` is the bench's alone: the scratch database holds a no-op public.pg_notify(text,
// text), and its search_path is then `public, pg_catalog` (pg_catalog named after public, so
// public's is found first; without naming it, pg_catalog is searched first), so every NOTIFY of
// the service (the append's, the triggers') resolves to the no-op. Unqualified names still create
// in public (the instances migrate at start). The service's code is the same in both.
import { execFileSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { pgSession, runMigrations } from "../lib/db/migrations";
import { hashPassword } from "../lib/staff/passwords";
import { sha256Hex } from "../lib/staff/secrets";
import { send } from "./load";
import { openLoopSamples } from "./open-loop";
import { startProcess, stopProcess, waitForHttp } from "./processes";
import { BENCH_ORIGIN, onPostgres, seedBench, type Widget } from "./seed";
import { ascending, percentile } from "./stats";

const root = path.resolve(import.meta.dirname, "..");

const { values } = parseArgs({
  options: {
    instances: { type: "string", default: "1,2,4" },
    senders: { type: "string", default: "64,128,256" },
    rates: { type: "string", default: "" },
    notify: { type: "string", default: "on,off" },
    seconds: { type: "string", default: "10" },
    pool: { type: "string", default: "16" },
    port: { type: "string", default: "7400" },
    "skip-build": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});
const numbers = (text: string) => (text ? text.split(",").map(Number) : []);
const instanceCounts = numbers(values.instances!);
const senderCounts = numbers(values.senders!);
const rates = numbers(values.rates!);
/** The conversations an open loop spreads its sends over. */
const OPEN_LOOP_CONVERSATIONS = 128;
const notifyModes = values.notify!.split(",") as ("on" | "off")[];
const seconds = Number(values.seconds);
// Connections per instance: 4 instances of 16 (and their listeners) stay under a default max_connections of 100.
const poolSize = Number(values.pool);
const firstPort = Number(values.port);
const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

interface Cell {
  notify: "on" | "off";
  instances: number;
  /** Closed-loop senders, or an open loop's offered rate ("200/s open"). */
  senders: string;
  sends: number;
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  waits: [string, number][];
  widget: Delivery;
  inbox: Delivery;
  loadBefore: string;
  loadAfter: string;
}
interface Delivery {
  count: number;
  /** From the send's request to the delivery, and from its answer (after its commit) to the delivery. */
  p50: number;
  p99: number;
  afterAnswerP99: number;
}

const NONE: Delivery = { count: 0, p50: NaN, p99: NaN, afterAnswerP99: NaN };
const load = () => os.loadavg().map((value) => value.toFixed(2)).join(" ");

async function main(): Promise<void> {
  if (!values["skip-build"]) {
    console.log("building…");
    execFileSync("npm", ["run", "build"], { cwd: root, stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  }
  const name = `notifylock_bench_${Date.now()}`;
  await onPostgres(server, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
  const cells: Cell[] = [];
  try {
    await onPostgres(url, (client) => runMigrations(pgSession(client), path.join(root, "prisma/migrations")));
    const probeCount = 2;
    const widgets = await seedBench(url, Math.max(32, ...senderCounts, rates.length ? OPEN_LOOP_CONVERSATIONS : 0) + probeCount + 50);
    const probe = widgets.slice(50, 50 + probeCount); // not the long history conversations
    const sending = widgets.slice(50 + probeCount);
    const cookie = await seedOwner(url);
    await onPostgres(url, (client) =>
      client.query(`CREATE FUNCTION public.pg_notify(channel text, payload text) RETURNS void LANGUAGE plpgsql AS $$ BEGIN END $$`),
    );
    for (const notify of notifyModes) {
      await onPostgres(server, (client) =>
        client.query(notify === "off" ? `ALTER DATABASE "${name}" SET search_path = public, pg_catalog` : `ALTER DATABASE "${name}" RESET search_path`),
      );
      for (const instances of instanceCounts) {
        const ports = Array.from({ length: instances }, (_, i) => firstPort + i);
        const children = await startInstances(url, ports);
        try {
          await sendFor(ports, sending, 32, 2_000); // warm-up: plans, pools, JIT of the server
          const loads: Load[] = [...senderCounts.map((senders) => ({ senders })), ...rates.map((rate) => ({ rate }))];
          for (const offered of loads) {
            const cell = await measure(url, name, ports, sending, probe, cookie, notify, offered);
            cells.push(cell);
            console.log(row(cell));
          }
        } finally {
          await Promise.all(children.map(stopProcess));
        }
      }
    }
  } finally {
    await onPostgres(server, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
  console.log("\n" + table(cells));
  console.log("\nTop wait events (share of active-backend samples) per cell:");
  for (const cell of cells) console.log(`- notify ${cell.notify}, ${cell.instances} × ${cell.senders}: ${cell.waits.map(([event, share]) => `${event} ${share}%`).join(", ")}`);
}

async function startInstances(url: string, ports: number[]): Promise<ChildProcess[]> {
  const env = {
    DATABASE_URL: url,
    ADMIN_TOKEN: `bench-admin-${randomBytes(12).toString("hex")}`,
    RATE_LIMITS: "off",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "error",
    NODE_ENV: "production",
    DATABASE_POOL_SIZE: String(poolSize),
  };
  const log = (line: string) => values.verbose && process.stderr.write(line);
  const children = ports.map((port) => startProcess(process.execPath, [path.join(root, "scripts/start.mjs")], { ...env, PORT: String(port) }, log));
  await Promise.all(ports.map((port) => waitForHttp(port)));
  return children;
}

/** An owner signed in (told every inbox event without a visibility read); its session cookie. */
async function seedOwner(url: string): Promise<string> {
  const token = `ps_${randomBytes(32).toString("base64url")}`;
  await onPostgres(url, async (client) => {
    await client.query(`INSERT INTO members (id, name, email, role, password_hash) VALUES ('bench-owner', 'Bench owner', 'owner@bench.example', 'owner', $1)`, [
      await hashPassword("bench password 123"),
    ]);
    await client.query(`INSERT INTO staff_sessions (id, token_hash, member_id, expires_at) VALUES ($1, $2, 'bench-owner', now() + interval '1 day')`, [
      randomUUID(),
      sha256Hex(token),
    ]);
  });
  return `parley_session=${token}`;
}

const sendSpec = (widget: Widget, tag: string) => ({
  method: "POST",
  path: "/api/v1/chat/visitor/messages",
  headers: { Origin: BENCH_ORIGIN, Authorization: `Bearer ${widget.token}`, "Content-Type": "application/json" },
  body: JSON.stringify({ body: "Is this in stock?", client_id: `${tag}-${randomBytes(6).toString("hex")}` }),
});

/** `senders` closed loops, sender w on instance w mod N and its own conversation; every latency. */
async function sendFor(ports: number[], widgets: Widget[], senders: number, durationMs: number) {
  const agents = ports.map(() => new http.Agent({ keepAlive: true, maxSockets: senders, timeout: 4_000 }));
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: senders }, async (_, worker) => {
      const at = worker % ports.length;
      while (performance.now() < deadline) {
        const sentAt = performance.now();
        try {
          const answer = await send(ports[at]!, sendSpec(widgets[worker]!, `w${worker}`), agents[at]!);
          if (answer.status !== 201 && answer.status !== 200) {
            if (errors++ === 0) console.error(`a send failed: ${answer.status} ${answer.body.slice(0, 300)}`);
          }
        } catch (error) {
          if (errors++ === 0) console.error("a send failed:", (error as Error).message);
        }
        latencies.push(performance.now() - sentAt);
      }
    }),
  );
  const elapsed = performance.now() - started;
  for (const agent of agents) agent.destroy();
  return { latencies: ascending(latencies), elapsed, errors };
}

/** Closed-loop senders, or an open loop's sends a second. */
type Load = { senders: number } | { rate: number };

/** R sends a second in all, spread over the conversations (each on instance c mod N), whatever the answers; latencies count from when each send was due. */
async function sendAtRate(ports: number[], widgets: Widget[], rate: number, durationMs: number) {
  const conversations = widgets.slice(0, OPEN_LOOP_CONVERSATIONS);
  const meanPauseMs = (conversations.length / rate) * 1000;
  const runs = await Promise.all(
    ports.map((port, at) => {
      const mine = conversations.filter((_, c) => c % ports.length === at);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 });
      return openLoopSamples({
        port,
        visitors: mine.length,
        durationMs,
        pauseMs: () => meanPauseMs * (0.5 + Math.random()),
        next: (visitor) => sendSpec(mine[visitor]!, `r${at}-${visitor}`),
        agent,
      }).finally(() => agent.destroy());
    }),
  );
  return {
    latencies: ascending(runs.flatMap((run) => run.latencies)),
    elapsed: Math.max(...runs.map((run) => run.elapsedMs)),
    errors: runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0),
  };
}

async function measure(url: string, name: string, ports: number[], sending: Widget[], probe: Widget[], cookie: string, notify: "on" | "off", offered: Load): Promise<Cell> {
  const loadBefore = load();
  const waits = sampleWaits(url, name);
  // Without NOTIFY nothing is delivered: a held long-poll answers at its time limit.
  const delivery = notify === "on" ? probeDelivery(ports, probe[0]!, cookie, seconds * 1000) : Promise.resolve({ widget: NONE, inbox: NONE });
  const sending$ = "rate" in offered ? sendAtRate(ports, sending, offered.rate, seconds * 1000) : sendFor(ports, sending, offered.senders, seconds * 1000);
  const [sent, delivered] = await Promise.all([sending$, delivery]);
  const waitShares = await waits.stop();
  return {
    notify,
    instances: ports.length,
    senders: "rate" in offered ? `${offered.rate}/s open` : String(offered.senders),
    sends: sent.latencies.length,
    rate: Math.round((sent.latencies.length / sent.elapsed) * 1000),
    p50: round(percentile(sent.latencies, 0.5)),
    p99: round(percentile(sent.latencies, 0.99)),
    errors: sent.errors,
    waits: waitShares,
    ...delivered,
    loadBefore,
    loadAfter: load(),
  };
}

/**
 * Every 100 ms, the wait event of each active backend of the database (the service's; not the
 * listeners, idle in LISTEN), counted: `Lock:object` is the notification lock's heavyweight lock,
 * `LWLock:NotifyQueue…`/`NotifySLRU` its queue, `IO:WALSync`/`LWLock:WALWrite` the commit's flush,
 * `CPU` no wait at all.
 */
function sampleWaits(url: string, name: string) {
  const counts = new Map<string, number>();
  let total = 0;
  let stopped = false;
  const sampling = (async () => {
    while (!stopped) {
      // A fresh connection when one is lost (the machine is shared: another's test may end backends).
      const client = new pg.Client({ connectionString: url, application_name: "bench_wait_sampler" });
      client.on("error", () => {});
      try {
        await client.connect();
        while (!stopped) {
          const { rows } = await client.query<{ event: string }>(
            `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS event FROM pg_stat_activity
             WHERE datname = $1 AND state = 'active' AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
            [name],
          );
          for (const { event } of rows) counts.set(event, (counts.get(event) ?? 0) + 1);
          total += rows.length;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } catch (error) {
        console.error("wait sampler:", (error as Error).message);
      } finally {
        await client.end().catch(() => {});
      }
    }
  })();
  return {
    async stop(): Promise<[string, number][]> {
      stopped = true;
      await sampling;
      return [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([event, count]) => [event, Math.round((count / Math.max(total, 1)) * 100)]);
    },
  };
}

/**
 * One probe message every 250 ms for `durationMs`: sent through the last instance to a
 * conversation whose widget holds a long-poll (wait=25) on the first instance, while an owner's
 * inbox event stream is open on the first instance. The time from the send to each delivery.
 */
async function probeDelivery(ports: number[], widget: Widget, cookie: string, durationMs: number): Promise<{ widget: Delivery; inbox: Delivery }> {
  const first = ports[0]!;
  const last = ports.at(-1)!;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const sendAgent = new http.Agent({ keepAlive: false }); // a POST is not sent again on a kept-alive socket the server just closed
  // [sent, delivered, answered] per probe message (answered when the send's answer came by then).
  const widgetTimes: number[][] = [];
  const inboxTimes: number[][] = [];
  let outstanding: Probe | null = null;
  const stream = await openInboxStream(first, cookie, (conversationId) => {
    if (conversationId === widget.conversationId && outstanding && outstanding.inboxAt === null) outstanding.inboxAt = performance.now();
  });
  let cursor = await currentCursor(first, widget, agent);
  const deadline = performance.now() + durationMs;
  try {
    while (performance.now() < deadline) {
      const poll = send(first, { method: "GET", path: `/api/v1/chat/visitor/messages?cursor=${cursor}&wait=25`, headers: { Origin: BENCH_ORIGIN, Authorization: `Bearer ${widget.token}` } }, agent).catch(
        (error: unknown) => error as Error,
      );
      await new Promise((resolve) => setTimeout(resolve, 150)); // held by now
      const current: Probe = { sentAt: performance.now(), answeredAt: null, inboxAt: null };
      outstanding = current;
      void send(last, sendSpec(widget, "probe"), sendAgent).then(
        () => (current.answeredAt = performance.now()),
        (error: unknown) => console.error("probe send failed:", error),
      );
      const answer = await poll;
      const widgetAt = performance.now();
      if (answer instanceof Error) {
        console.error("probe long-poll failed:", answer);
        continue;
      }
      const page = (JSON.parse(answer.body) as { result?: { next_cursor: number; items: unknown[] } }).result;
      if (!page) throw new Error(`probe long-poll: ${answer.status} ${answer.body}`);
      cursor = page.next_cursor;
      await new Promise((resolve) => setTimeout(resolve, 100)); // the send's answer and the inbox event arrive
      if (page.items.length > 0) widgetTimes.push([current.sentAt, widgetAt]);
      if (current.inboxAt !== null) inboxTimes.push([current.sentAt, current.inboxAt]);
      const answeredAt = current.answeredAt;
      if (answeredAt !== null) {
        for (const times of [widgetTimes, inboxTimes]) if (times.at(-1)?.[0] === current.sentAt) times.at(-1)!.push(answeredAt);
      }
    }
  } finally {
    stream.destroy();
    agent.destroy();
  }
  return { widget: summarizeDelivery(widgetTimes), inbox: summarizeDelivery(inboxTimes) };
}

interface Probe {
  sentAt: number;
  answeredAt: number | null;
  inboxAt: number | null;
}

function summarizeDelivery(times: number[][]): Delivery {
  const total = ascending(times.map(([sentAt, at]) => at! - sentAt!));
  const afterAnswer = ascending(times.filter((time) => time.length === 3).map(([, at, answeredAt]) => Math.max(0, at! - answeredAt!)));
  return { count: times.length, p50: round(percentile(total, 0.5)), p99: round(percentile(total, 0.99)), afterAnswerP99: round(percentile(afterAnswer, 0.99)) };
}

async function currentCursor(port: number, widget: Widget, agent: http.Agent): Promise<number> {
  let cursor = widget.cursor;
  for (;;) {
    const answer = await send(port, { method: "GET", path: `/api/v1/chat/visitor/messages?cursor=${cursor}&limit=100`, headers: { Origin: BENCH_ORIGIN, Authorization: `Bearer ${widget.token}` } }, agent);
    const page = (JSON.parse(answer.body) as { result?: { next_cursor: number; has_more: boolean } }).result;
    if (!page) throw new Error(`reading the probe conversation: ${answer.status} ${answer.body}`);
    cursor = page.next_cursor;
    if (!page.has_more) return cursor;
  }
}

/** The inbox's event stream; `onMessage` with the conversation of each visitor message event. */
function openInboxStream(port: number, cookie: string, onMessage: (conversationId: string) => void): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/api/v1/inbox/events", headers: { Cookie: cookie } }, (response) => {
      if (response.statusCode !== 200) {
        response.setEncoding("utf8");
        let body = "";
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => reject(new Error(`event stream: ${response.statusCode} ${body}`)));
        return;
      }
      let buffer = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const data = buffer.slice(0, end).split("\n").find((line) => line.startsWith("data: "));
          buffer = buffer.slice(end + 2);
          if (!data) continue;
          const event = JSON.parse(data.slice(6)) as { type: string; conversation_id?: string; author_type?: string };
          if (event.type === "ready") resolve(request);
          if (event.type === "message" && event.author_type === "visitor" && event.conversation_id) onMessage(event.conversation_id);
        }
      });
    });
    request.on("error", reject);
  });
}

process.on("unhandledRejection", (error) => console.error("unhandled:", error));

const round = (ms: number) => Math.round(ms * 10) / 10;

const row = (cell: Cell) =>
  `| ${cell.notify} | ${cell.instances} | ${cell.senders} | ${cell.rate} | ${cell.p50} | ${cell.p99} | ${cell.errors} | ${cell.widget.p50} / ${cell.widget.p99} (${cell.widget.count}) | ${cell.widget.afterAnswerP99} | ${cell.inbox.p50} / ${cell.inbox.p99} (${cell.inbox.count}) | ${cell.inbox.afterAnswerP99} | ${cell.waits
    .slice(0, 3)
    .map(([event, share]) => `${event} ${share}%`)
    .join(", ")} | ${cell.loadBefore} → ${cell.loadAfter} |`;

function table(cells: Cell[]): string {
  const header = [
    "| NOTIFY | instances | senders (closed) or rate (open) | sends/s | p50 ms | p99 ms | errors | widget delivery p50 / p99 ms (n) | after answer p99 | inbox delivery p50 / p99 ms (n) | after answer p99 | top wait events | load 1/5/15 before → after |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  return [...header, ...cells.map(row)].join("\n");
}

await main();

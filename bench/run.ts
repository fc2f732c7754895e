// npm run bench — builds and starts the production server on a scratch PostgreSQL database,
// seeds it, and measures each scenario against the service and (where the issue asks) the bare
// baseline in the same run. Rate limits are off and the allowance is high, for the bench only.
//
// Environment: BENCH_DATABASE_URL (a server to create the scratch database on; default
// postgresql://postgres@127.0.0.1:5432/postgres), BENCH_SECONDS (per scenario, default 10),
// BENCH_WIDGETS (default 1000,5000,10000; "none" skips), BENCH_SKIP_BUILD=1, BENCH_SOAK_SECONDS
// (default 60; 0 skips), BENCH_ONLY (comma-separated scenario names), BENCH_SERVER=next-start
// (measure Next's own server instead of `npm start`'s front).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { AGENTS, INBOX_CONVERSATIONS, listFirstPage, liveDelivery, seedAgents, type DeliveryResult } from "./inbox";
import { closedLoop, type LoadResult, type RequestSpec } from "./load";
import { openWidgets, type OpenWidgetsResult } from "./open-widgets";
import { startProcess, stopProcess, waitForHttp, watchMemory } from "./processes";
import { scenarios } from "./scenarios";
import { seedBench, type Widget } from "./seed";

const root = path.resolve(import.meta.dirname, "..");
const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const widgetCounts = (process.env.BENCH_WIDGETS ?? "1000,5000,10000").split(",").filter((n) => n !== "none").map(Number);
const only = process.env.BENCH_ONLY?.split(",");
const CONNECTIONS = 64;
// JIT and Next's lazily loaded route modules make the first seconds unrepresentative.
const WARMUP_MS = 3_000;
const SERVICE_PORT = 3300;
const BASELINE_PORT = 3301;
const adminToken = `bench-admin-${randomBytes(12).toString("hex")}`;

const databaseUrl = (name: string) => Object.assign(new URL(server), { pathname: `/${name}` }).toString();

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

const WITH_BASELINE = new Set(["idle poll", "send"]);

interface Row extends LoadResult {
  scenario: string;
  peakRssMiB: number;
  baseline?: LoadResult;
}

async function main(): Promise<void> {
  if (!process.env.BENCH_SKIP_BUILD) {
    console.log("building…");
    execFileSync("npx", ["next", "build"], { cwd: root, stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  }
  const name = `parley_bench_${Date.now()}`;
  await onServer(`CREATE DATABASE "${name}"`);
  const url = databaseUrl(name);
  const log = (line: string) => process.env.BENCH_VERBOSE && process.stderr.write(line);
  const env = { DATABASE_URL: url, ADMIN_TOKEN: adminToken, RATE_LIMITS: "off", LOG_LEVEL: "error", PORT: String(SERVICE_PORT), NODE_ENV: "production" };
  const service = startProcess(process.execPath, serverCommand(), env, log);
  const baseline = startProcess(process.execPath, ["--import", "tsx", path.join(root, "bench/baseline/server.ts")], { DATABASE_URL: url, PORT: String(BASELINE_PORT) }, log);
  try {
    await waitForHttp(SERVICE_PORT);
    await waitForHttp(BASELINE_PORT);
    // The service migrates at start; seed only after it answers.
    const runInbox = !only || only.includes("inbox");
    const widgets = await seedBench(url, Math.max(...widgetCounts, 2100, runInbox ? INBOX_CONVERSATIONS : 0));
    // The soak first, on a server only warmed up: later scenarios (through Next) grow the heap,
    // and what it gives back meanwhile would hide growth rather than show it.
    const idlePoll = scenarios(widgets)["idle poll"]!;
    let soak: Awaited<ReturnType<typeof soakRss>> | null = null;
    if (soakSeconds > 0) {
      await closedLoop({ port: SERVICE_PORT, connections: CONNECTIONS, durationMs: WARMUP_MS, next: idlePoll });
      soak = await soakRss(service.pid!, idlePoll);
      console.log(`soak: idle poll for ${soakSeconds}s — RSS ${soak.at10} MiB at 10 s, ${soak.atEnd} MiB at end (${soak.growth}% growth); every 10 s: ${soak.every10s.join(", ")} MiB`);
    }
    const rows: Row[] = [];
    for (const [scenario, next] of Object.entries(scenarios(widgets))) {
      if (only && !only.includes(scenario)) continue;
      await closedLoop({ port: SERVICE_PORT, connections: CONNECTIONS, durationMs: WARMUP_MS, next });
      const memory = watchMemory(service.pid!);
      const result = await closedLoop({ port: SERVICE_PORT, connections: CONNECTIONS, durationMs: seconds * 1000, next });
      const peakRssMiB = memory.stop().peak;
      const row: Row = { scenario, ...result, peakRssMiB };
      if (WITH_BASELINE.has(scenario)) {
        await closedLoop({ port: BASELINE_PORT, connections: CONNECTIONS, durationMs: WARMUP_MS, next });
        row.baseline = await closedLoop({ port: BASELINE_PORT, connections: CONNECTIONS, durationMs: seconds * 1000, next });
      }
      rows.push(row);
      console.log(formatRow(row));
    }
    const open: (OpenWidgetsResult & { peakRssMiB: number })[] = [];
    const current = await currentCursors(url, widgets);
    for (const count of widgetCounts) {
      const memory = watchMemory(service.pid!);
      const result = await openWidgets({
        port: SERVICE_PORT,
        widgets: current.slice(0, count),
        adminToken,
        repliesPerSecond: 20,
        rampMs: Math.max(5_000, count),
        measureMs: Math.max(seconds, 20) * 1000,
      });
      open.push({ ...result, peakRssMiB: memory.stop().peak });
      console.log(formatOpen(open.at(-1)!));
    }
    let inbox: { list: LoadResult; delivery: DeliveryResult } | null = null;
    if (runInbox) {
      const cookies = await seedAgents(url, AGENTS);
      await listFirstPage(SERVICE_PORT, cookies, WARMUP_MS);
      const list = await listFirstPage(SERVICE_PORT, cookies, seconds * 1000);
      console.log(`inbox list (first page of ${widgets.length} conversations, 1 connection): ${list.rps} req/s p50 ${list.p50} ms p99 ${list.p99} ms errors ${list.errors} non-2xx ${list.non2xx}`);
      // Conversations no other scenario sends to.
      const delivery = await liveDelivery(SERVICE_PORT, cookies, widgets.slice(2100, 2100 + seconds * 5), seconds * 5);
      console.log(`inbox live delivery to ${delivery.agents} agents: ${delivery.delivered}/${delivery.expected} delivered, p50 ${delivery.p50} ms p99 ${delivery.p99} ms`);
      inbox = { list, delivery };
    }
    writeReport(rows, soak, open, inbox);
  } finally {
    await Promise.all([stopProcess(service), stopProcess(baseline)]);
    await onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

/** `npm start` (scripts/start.mjs), or with BENCH_SERVER=next-start Next's own server, to compare. */
function serverCommand(): string[] {
  if (process.env.BENCH_SERVER === "next-start") return [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(SERVICE_PORT)];
  return [path.join(root, "scripts/start.mjs")];
}

async function soakRss(pid: number, next: (w: number, i: number) => RequestSpec) {
  const memory = watchMemory(pid);
  await closedLoop({ port: SERVICE_PORT, connections: CONNECTIONS, durationMs: soakSeconds * 1000, next });
  const { samples } = memory.stop();
  // RSS saws up and down with each major GC (by a third here), so a single sample says little:
  // "RSS at t" is the mean over the 5 s up to t.
  const meanBefore = (ms: number) => {
    const window = samples.filter((sample) => sample.at > ms - 5_000 && sample.at <= ms);
    return Math.round(window.reduce((sum, sample) => sum + sample.mib, 0) / Math.max(1, window.length));
  };
  const at10 = meanBefore(10_000);
  const atEnd = meanBefore(samples.at(-1)!.at);
  const every10s = Array.from({ length: Math.floor(soakSeconds / 10) }, (_, i) => meanBefore((i + 1) * 10_000));
  return { at10, atEnd, every10s, growth: Math.round(((atEnd - at10) / at10) * 1000) / 10 };
}

async function currentCursors(url: string, widgets: Widget[]): Promise<Widget[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ id: string; last_sequence: number }>("SELECT id, last_sequence FROM conversations");
  await client.end();
  const last = new Map(rows.map((row) => [row.id, row.last_sequence]));
  return widgets.map((widget) => ({ ...widget, cursor: last.get(widget.conversationId) ?? widget.cursor }));
}

const ratio = (service: number, base: number) => (base ? (service / base).toFixed(2) : "–");

function formatRow(row: Row): string {
  const base = row.baseline
    ? ` | baseline ${row.baseline.rps} req/s p50 ${row.baseline.p50} p99 ${row.baseline.p99} | service÷baseline req/s ${ratio(row.rps, row.baseline.rps)}, p99 ${ratio(row.p99, row.baseline.p99)}`
    : "";
  return `${row.scenario}: ${row.rps} req/s p50 ${row.p50} ms p99 ${row.p99} ms errors ${row.errors} non-2xx ${row.non2xx} peak RSS ${row.peakRssMiB} MiB${base}`;
}

function formatOpen(result: OpenWidgetsResult & { peakRssMiB: number }): string {
  return `open widgets ${result.widgets}: ${result.replies} replies, ${result.delivered} delivered, delivery p50 ${result.p50} ms p99 ${result.p99} ms, errors ${result.errors} ${JSON.stringify(result.errorCauses)}, long-polls answered ${result.polls}, presence polls ${result.presencePolls}, GETs resent after a stale keep-alive connection ${result.staleConnectionRetries}, peak RSS ${result.peakRssMiB} MiB`;
}

function writeReport(
  rows: Row[],
  soak: Awaited<ReturnType<typeof soakRss>> | null,
  open: (OpenWidgetsResult & { peakRssMiB: number })[],
  inbox: { list: LoadResult; delivery: DeliveryResult } | null,
): void {
  const lines = [
    `| scenario | req/s | p50 ms | p99 ms | errors | non-2xx | peak RSS MiB | baseline req/s | baseline p99 ms | req/s ÷ baseline |`,
    `|---|---|---|---|---|---|---|---|---|---|`,
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.peakRssMiB} | ${r.baseline?.rps ?? "–"} | ${r.baseline?.p99 ?? "–"} | ${r.baseline ? ratio(r.rps, r.baseline.rps) : "–"} |`,
    ),
    "",
    soak
      ? `Soak (idle poll, ${soakSeconds} s, ${CONNECTIONS} connections, first): RSS ${soak.at10} MiB at 10 s → ${soak.atEnd} MiB at the end (${soak.growth} %); every 10 s: ${soak.every10s.join(", ")} MiB.`
      : "Soak: skipped.",
    "",
    `| open widgets | replies | delivered | delivery p50 ms | delivery p99 ms | errors | stale keep-alive GETs resent | peak RSS MiB |`,
    `|---|---|---|---|---|---|---|---|`,
    ...open.map((o) => `| ${o.widgets} | ${o.replies} | ${o.delivered} | ${o.p50} | ${o.p99} | ${o.errors} | ${o.staleConnectionRetries} | ${o.peakRssMiB} |`),
    "",
    inbox
      ? [
          `| inbox | figure |`,
          `|---|---|`,
          `| conversation list, first page (${INBOX_CONVERSATIONS} conversations), p50 / p99 ms | ${inbox.list.p50} / ${inbox.list.p99} (${inbox.list.rps} req/s, ${inbox.list.errors + inbox.list.non2xx} failures) |`,
          `| live delivery to ${inbox.delivery.agents} agents, p50 / p99 ms | ${inbox.delivery.p50} / ${inbox.delivery.p99} (${inbox.delivery.delivered}/${inbox.delivery.expected} delivered) |`,
        ].join("\n")
      : "Inbox: skipped.",
  ];
  mkdirSync(path.join(root, "bench/results"), { recursive: true });
  writeFileSync(path.join(root, "bench/results/latest.md"), `${lines.join("\n")}\n`);
  console.log(`\n${lines.join("\n")}\n\n(written to bench/results/latest.md)`);
}

await main();

// npm run bench — builds, then measures the production server (`npm start`) on PostgreSQL (with
// the bare baseline beside it in the same run), on PostgreSQL with webhooks and email configured,
// and in embedded mode (PGlite), and prints one table with every target of docs/performance.md.
// Rate limits are off and the allowance is high, for the bench only. Flags and environment:
// bench/options.ts (`npm run bench -- --only start`, `--sizes 10000,25000,50000`, `--database embedded`).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { commitOf } from "./commit";
import { deploy, type Deployment } from "./deployments";
import { AGENTS, INBOX_CONVERSATIONS, listFirstPage, liveDelivery, seedAgents } from "./inbox";
import { closedLoop, closedLoopSamples, keptConnections, summarize, type LoadSamples } from "./load";
import { measureHostPageScore, type HostPageScore } from "./host-page-score";
import { openWidgets } from "./open-widgets";
import { readOptions, type Part } from "./options";
import { cpuMs, hardOpenFileLimit, watchMemory } from "./processes";
import { formatReport, type InboxRow, type OpenRow, type Row, type Soak, type SuggestionRow } from "./report";
import { scenarios } from "./scenarios";
import { BENCH_ORIGIN, BENCH_SITE, onPostgres, type Widget } from "./seed";
import { seedArticles } from "./article-seed";
import { backlogWatch } from "./backlog";
import { openLoopSamples, type OpenLoopSamples } from "./open-loop";
import { measureRuleLatency, type RuleLatency } from "./rule-latency";
import { installRules } from "./rules-setup";
import { seededRandom } from "../tests/support/load";
import { typists } from "./typing";
import { ascending, percentile } from "./stats";
import { SUGGESTION_TTL_MS, suggestionKey } from "../lib/articles/suggestion-cache";

const root = path.resolve(import.meta.dirname, "..");
const options = readOptions();
const CONNECTIONS = 64;
// JIT and lazily loaded modules make the first seconds unrepresentative.
const WARMUP_MS = 3_000;
const WITH_BASELINE = new Set(["idle poll", "send"]);
// Files a process may open besides the widgets' sockets (database pool, the writer's sockets, its
// own files: well under 1,000). 1,000 puts 50,000 widgets on 3 instances at a hard limit of 20,000.
const SPARE_FILES = 1_000;
const loadAverage = () => os.loadavg().map((n) => n.toFixed(2)).join(", ");

const rows: Row[] = [];
const open: OpenRow[] = [];
let soak: Soak | null = null;
let inbox: InboxRow | null = null;
let hostPage: HostPageScore | null = null;
const suggestionRows: SuggestionRow[] = [];
let ruleLatency: RuleLatency | null = null;
const has = (part: Part) => options.only.has(part);

async function main(): Promise<void> {
  const startedAt = new Date();
  const commit = commitOf(root); // the code measured, read before the run
  const loadAtStart = loadAverage();
  if (!options.skipBuild) {
    console.log("building…");
    execFileSync("npx", ["next", "build"], { cwd: root, stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  }
  const requestParts = (["idle poll", "presence poll", "send", "start", "history"] as const).filter(has);
  const filesPerProcess = hardOpenFileLimit() - SPARE_FILES;
  if (options.databases.includes("postgres")) {
    const needsInbox = has("inbox");
    const seed = Math.max(2100, ...(has("open widgets") ? options.sizes : []), needsInbox ? INBOX_CONVERSATIONS : 0);
    await on({ database: "postgres", notifications: false, seed, port: options.port }, async (deployment) => {
      await measureHostPage(deployment);
      if (has("soak") && options.soakSeconds > 0) soak = await soakRss(deployment);
      await measure(deployment, requestParts);
      if (options.rules > 0 && has("send")) await measureSendWithRules(deployment);
      if (has("suggestions")) await measureSuggestions(deployment);
      if (has("open widgets")) {
        for (const count of options.sizes) {
          // From where the conversations are now: an earlier size's replies are not this one's deliveries.
          const current = await currentCursors(deployment.url!, deployment.widgets.slice(0, count));
          await measureOpenWidgets(deployment, current, filesPerProcess);
        }
      }
      if (needsInbox) await measureInbox(deployment);
    });
    if (options.notifications) {
      const parts = requestParts.filter((part) => part === "idle poll" || part === "send" || part === "start");
      if (parts.length) await on({ database: "postgres", notifications: true, seed: 2100, port: options.port + 6 }, (deployment) => measure(deployment, parts));
    }
  }
  if (options.databases.includes("embedded")) {
    const seed = Math.max(2100, ...(has("open widgets") ? options.embeddedSizes : []));
    await on({ database: "embedded", notifications: false, seed, port: options.port + 8 }, async (deployment) => {
      await measureHostPage(deployment);
      await measure(deployment, requestParts);
      if (has("open widgets")) for (const count of options.embeddedSizes) await measureOpenWidgets(deployment, deployment.widgets.slice(0, count), filesPerProcess);
    });
  }
  const report = formatReport({
    startedAt,
    commit,
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, open-file limit ${filesPerProcess + SPARE_FILES} per process`,
    load: `load average at start ${loadAtStart}; at end ${loadAverage()}`,
    seconds: options.seconds,
    connections: CONNECTIONS,
    rows,
    soak,
    soakSeconds: options.soakSeconds,
    open,
    inbox,
    hostPage,
    suggestions: has("suggestions") && options.databases.includes("postgres") ? { visitors: options.visitors, articles: options.articles, pauseMs: options.pauseMs, rows: suggestionRows } : null,
    rules: options.rules > 0 && has("send") && options.databases.includes("postgres") ? { count: options.rules, sla: options.sla, latency: ruleLatency } : null,
  });
  mkdirSync(path.join(root, "bench/results"), { recursive: true });
  writeFileSync(path.join(root, "bench/results/latest.md"), report);
  console.log(`\n${report}\n(written to bench/results/latest.md)`);
}

/** On the first deployment only, before any load: the demo page's Lighthouse figures. */
async function measureHostPage(deployment: Deployment): Promise<void> {
  if (!has("host page score") || hostPage) return;
  hostPage = await measureHostPageScore(`http://localhost:${deployment.port}/demo`);
  console.log(`${deployment.label} — host page score: ${JSON.stringify(hostPage)}`);
}

async function on(kind: Parameters<typeof deploy>[1], work: (deployment: Deployment) => Promise<void>): Promise<void> {
  const deployment = await deploy(options, kind);
  try {
    await work(deployment);
  } finally {
    await deployment.stop();
  }
}

async function measure(deployment: Deployment, parts: readonly string[]): Promise<void> {
  const all = scenarios(deployment.widgets);
  const before = deployment.delivered();
  for (const scenario of parts) {
    // With --rules, the bare send settles its backlog after each turn as the send with rules does.
    const settle = options.rules > 0 && scenario === "send" && deployment.url ? deployment.url : null;
    await measureScenario(deployment, scenario, all[scenario]!, settle);
  }
  const after = deployment.delivered();
  if (before && after) console.log(`${deployment.label}: ${after.webhooks - before.webhooks} webhook requests and ${after.emails - before.emails} emails received during the run`);
  if (after) rows.filter((row) => row.notifications).forEach((row) => (row.delivered = after));
}

/**
 * `scenario` (its row's name) beside the baseline when it has one. `settleOn`: after each of the
 * service's turns, wait until the work it owes is done (bench/backlog.ts), its CPU time counted.
 */
async function measureScenario(deployment: Deployment, scenario: string, next: Parameters<typeof closedLoop>[0]["next"], settleOn: string | null): Promise<void> {
  const service = { pid: deployment.service.pid!, port: deployment.port };
  const baselineName = scenario.startsWith("send") ? "send" : scenario;
  const baseline = deployment.baselinePort && deployment.baselinePid && WITH_BASELINE.has(baselineName) ? { pid: deployment.baselinePid, port: deployment.baselinePort } : null;
  const memory = watchMemory(service.pid);
  const backlog = settleOn ? await backlogWatch(settleOn) : null;
  // With notifications, a send leaves deliveries behind, which the service would work off during
  // the baseline's turns: there the two run one after the other, as before.
  let peakRssMiB = 0;
  const [result, baselineResult] = await timedLoops(baseline ? [service, baseline] : [service], next, deployment.notifications ? 1 : SLICES, backlog?.settle).finally(() => {
    peakRssMiB = memory.stop().peak;
    return backlog?.close();
  });
  const row: Row = { scenario, database: deployment.database, notifications: deployment.notifications, ...result!, peakRssMiB };
  if (baselineResult) row.baseline = baselineResult;
  rows.push(row);
  console.log(`${deployment.label} — ${scenario}: ${JSON.stringify({ ...row, scenario: undefined })}`);
}

/**
 * Issue 44 / 43 item 5: the send scenario again, now with `--rules` enabled rules and (`--sla`) an
 * SLA policy (bench/rules-setup.ts), beside the same baseline; then how soon a rule acts: 200
 * visitors' messages at 20 a second, each labelled by a rule (bench/rule-latency.ts).
 */
async function measureSendWithRules(deployment: Deployment): Promise<void> {
  if (!deployment.url) return;
  const installed = await installRules({ port: deployment.port, url: deployment.url }, options.rules, options.sla);
  console.log(`installed ${installed.rules} rules${installed.slaPolicy ? " and an SLA policy" : ""}`);
  // The new policy marks every open conversation once: computed before the measurement.
  const backlog = await backlogWatch(deployment.url, { timeoutMs: 120_000 });
  console.log(`the SLA sweep's first pass and the rules' setup settled in ${Math.round(await backlog.settle().finally(() => backlog.close()))} ms`);
  await measureScenario(deployment, `send, ${installed.rules} rules${installed.slaPolicy ? " + SLA" : ""}`, scenarios(deployment.widgets).send!, deployment.url);
  // The baseline's sends wrote to the same database, and its last turn's events are the service's
  // to dispatch and run the rules of: thousands of jobs the probe would wait behind. Drained first.
  const leftover = await backlogWatch(deployment.url, { timeoutMs: 180_000 });
  console.log(`the baseline's last turn's rule work drained in ${Math.round(await leftover.settle().finally(() => leftover.close()))} ms`);
  // Conversations no send scenario wrote to (the idle polls' only read theirs).
  ruleLatency = await measureRuleLatency(deployment.port, deployment.url, deployment.widgets.slice(300, 500), 20);
  console.log(`rule latency: ${JSON.stringify(ruleLatency)}`);
}

// A server measured beside its baseline takes turns with it, SLICES times each, so that whatever
// else the machine does during the run weighs on both alike: one after the other, a ratio moved by
// ±0.1 between runs.
const SLICES = 4;
/** The suggestions a lookup asks for, as the widget does. */
const SUGGESTIONS_ASKED = 3;
/** p50 and p99 (ms) of the samples labelled `label` in the open loops. */
function labelledPercentiles(samples: OpenLoopSamples[], label: string): [number, number] {
  const sorted = ascending(samples.flatMap((sample) => sample.labelled.get(label) ?? []));
  return [Math.round(percentile(sorted, 0.5) * 10) / 10, Math.round(percentile(sorted, 0.99) * 10) / 10];
}

/**
 * The servers' measurements, each warmed up before its first turn, with its CPU time per request.
 * `settle` (the first server's, the service's): after each of its turns (the warm-up too), wait
 * for the work it owes; that wait's CPU time is counted, its length reported as `settleMs`.
 */
async function timedLoops(servers: { pid: number; port: number }[], next: Parameters<typeof closedLoop>[0]["next"], slices: number, settle?: () => Promise<number>) {
  const measured = servers.map(() => ({ loops: [] as LoadSamples[], cpuMs: 0, settleMs: 0, agent: keptConnections(CONNECTIONS) }));
  for (let slice = 0; slice < slices; slice++) {
    for (const [i, { pid, port }] of servers.entries()) {
      const { agent } = measured[i]!;
      const settleHere = i === 0 ? settle : undefined;
      if (slice === 0) {
        await closedLoop({ port, connections: CONNECTIONS, durationMs: WARMUP_MS, next, agent });
        await settleHere?.();
      }
      const cpuBefore = cpuMs(pid);
      measured[i]!.loops.push(await closedLoopSamples({ port, connections: CONNECTIONS, durationMs: (options.seconds * 1000) / slices, next, agent }));
      if (settleHere) measured[i]!.settleMs += await settleHere();
      measured[i]!.cpuMs += cpuMs(pid) - cpuBefore;
    }
  }
  for (const { agent } of measured) agent.destroy();
  return measured.map(({ loops, cpuMs: cpu, settleMs }) => {
    const result = summarize(loops);
    return { ...result, cpuUs: Math.round((cpu * 1000) / Math.max(1, result.requests)), ...(settle ? { settleMs: Math.round(settleMs) } : {}) };
  });
}

/** Idle polls on a freshly started, warmed-up server, RSS sampled all along. */
async function soakRss(deployment: Deployment): Promise<Soak> {
  const next = scenarios(deployment.widgets)["idle poll"]!;
  await closedLoop({ port: deployment.port, connections: CONNECTIONS, durationMs: WARMUP_MS, next });
  const memory = watchMemory(deployment.service.pid!);
  await closedLoop({ port: deployment.port, connections: CONNECTIONS, durationMs: options.soakSeconds * 1000, next });
  const { samples } = memory.stop();
  // RSS saws up and down with each major GC (by a third here), so a single sample says little:
  // "RSS at t" is the mean over the 5 s up to t.
  const meanBefore = (ms: number) => {
    const window = samples.filter((sample) => sample.at > ms - 5_000 && sample.at <= ms);
    return Math.round(window.reduce((sum, sample) => sum + sample.mib, 0) / Math.max(1, window.length));
  };
  const at10 = meanBefore(10_000);
  const atEnd = meanBefore(samples.at(-1)!.at);
  const every10s = Array.from({ length: Math.floor(options.soakSeconds / 10) }, (_, i) => meanBefore((i + 1) * 10_000));
  const result = { at10, atEnd, every10s, growth: Math.round(((atEnd - at10) / at10) * 1000) / 10 };
  console.log(`soak: ${JSON.stringify(result)}`);
  return result;
}

/**
 * A process holds at most `filesPerProcess` sockets (the open-file limit): beyond that the widgets
 * are spread over several instances of the service on the same database, as behind a load
 * balancer, and over several load-generator processes. Each widget has one connection open (its
 * long-poll, which also brings staff typing while its panel is open). Their RSS is summed.
 */
async function measureOpenWidgets(deployment: Deployment, widgets: Widget[], filesPerProcess: number): Promise<void> {
  const socketsPerWidget = 1;
  const instances = Math.ceil((widgets.length * socketsPerWidget) / filesPerProcess);
  const extra = instances > 1 ? await deployment.addInstances(instances - 1) : null;
  try {
    const memory = watchMemory(deployment.service.pid!, ...(extra?.pids ?? []));
    const result = await openWidgets({
      ports: [deployment.port, ...(extra?.ports ?? [])],
      widgets,
      adminToken: deployment.adminToken,
      repliesPerSecond: 20,
      rampMs: Math.max(5_000, widgets.length),
      measureMs: Math.max(options.seconds, 20) * 1000,
      widgetsPerProcess: Math.floor(filesPerProcess / socketsPerWidget),
      // 127.0.0.0/8 is all loopback: 8 source addresses give 8 × the ephemeral port range.
      localAddresses: Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 2}`),
    });
    const row: OpenRow = { database: deployment.database, ...result, peakRssMiB: memory.stop().peak };
    open.push(row);
    console.log(`${deployment.label} — open widgets: ${JSON.stringify(row)}`);
  } finally {
    await extra?.stop();
  }
}

/**
 * The widget's article suggestions over HTTP (issue 40: p99 ≤ 50 ms with 200 visitors typing at
 * once): the bench site's help center on, N published articles (bench/article-seed.ts), and
 * `visitors` visitors each typing questions (bench/typing.ts) and asking GET
 * /api/v1/chat/widget/{site}/articles?q=…&limit=3 once per pause, a pause every `--pause-ms`, in an
 * open loop (bench/open-loop.ts). Two servers on the same database take turns: the service with its
 * suggestions cache (lib/articles/suggestion-cache.ts) and one more instance with it off
 * (SUGGESTION_CACHE_KIB=0), so the cache's gain is measured in the same run. PostgreSQL only: in
 * embedded mode the service holds the database, so nothing can be seeded after it starts.
 */
async function measureSuggestions(deployment: Deployment): Promise<void> {
  await onPostgres(deployment.url!, async (client) => {
    await client.query(`UPDATE sites SET help_center_enabled = true WHERE id = $1`, [BENCH_SITE]);
    await seedArticles((text, values) => client.query(text, values), BENCH_SITE, options.articles);
    await client.query("ANALYZE articles");
  });
  const uncached = await deployment.addInstances(1, { SUGGESTION_CACHE_KIB: "0" });
  const servers = [
    { label: "cache on", pid: deployment.service.pid!, port: deployment.port },
    { label: "cache off", pid: uncached.pids[0]!, port: uncached.ports[0]! },
  ];
  const [min, max] = options.pauseMs;
  const pauseMs = () => min + Math.random() * (max - min);
  try {
    const measured = servers.map((server, i) => ({
      ...server,
      samples: [] as OpenLoopSamples[],
      cpuMs: 0,
      agent: keptConnections(options.visitors),
      typing: typists(options.visitors, seededRandom(i + 1)),
      lastAsked: new Map<string, number>(),
      memory: watchMemory(server.pid),
    }));
    // "first": the server was not asked this text within the cache's lifetime, so it searched.
    const next = (typing: ReturnType<typeof typists>, lastAsked: Map<string, number>) => (visitor: number) => {
      const text = typing.next(visitor);
      if (text === null) return null;
      const key = suggestionKey(BENCH_SITE, text, SUGGESTIONS_ASKED, undefined);
      const label = performance.now() - (lastAsked.get(key) ?? -Infinity) > SUGGESTION_TTL_MS ? "first" : "repeat";
      if (label === "first") lastAsked.set(key, performance.now());
      return { method: "GET", path: `/api/v1/chat/widget/${BENCH_SITE}/articles?limit=${SUGGESTIONS_ASKED}&q=${encodeURIComponent(text)}`, headers: { Origin: BENCH_ORIGIN }, label };
    };
    for (let slice = 0; slice < SLICES; slice++) {
      for (const server of measured) {
        const loop = { port: server.port, visitors: options.visitors, pauseMs, next: next(server.typing, server.lastAsked), agent: server.agent };
        if (slice === 0) await openLoopSamples({ ...loop, durationMs: WARMUP_MS });
        const cpuBefore = cpuMs(server.pid);
        server.samples.push(await openLoopSamples({ ...loop, durationMs: (options.seconds * 1000) / SLICES }));
        server.cpuMs += cpuMs(server.pid) - cpuBefore;
      }
    }
    for (const server of measured) {
      server.agent.destroy();
      const result = summarize(server.samples);
      const sent = server.samples.reduce((sum, sample) => sum + sample.sent, 0);
      const elapsedMs = server.samples.reduce((sum, sample) => sum + sample.elapsedMs, 0);
      const row: SuggestionRow = {
        server: server.label,
        ...result,
        offeredRps: Math.round((sent / elapsedMs) * 1000),
        cpuUs: Math.round((server.cpuMs * 1000) / Math.max(1, result.requests)),
        distinctShare: Math.round(server.typing.distinctShare() * 100) / 100,
        firstAsked: labelledPercentiles(server.samples, "first"),
        repeated: labelledPercentiles(server.samples, "repeat"),
        peakRssMiB: server.memory.stop().peak,
      };
      suggestionRows.push(row);
      console.log(`${deployment.label} — suggestions, ${server.label} (${options.visitors} visitors, a lookup every ${min}–${max} ms, ${options.articles} articles): ${JSON.stringify(row)}`);
    }
  } finally {
    await uncached.stop();
  }
}

async function measureInbox(deployment: Deployment): Promise<void> {
  const cookies = await seedAgents(deployment.url!, AGENTS);
  await listFirstPage(deployment.port, cookies, WARMUP_MS);
  const list = await listFirstPage(deployment.port, cookies, options.seconds * 1000);
  // Conversations no other scenario sends to.
  const delivery = await liveDelivery(deployment.port, cookies, deployment.widgets.slice(2100, 2100 + options.seconds * 5), options.seconds * 5);
  inbox = { list, delivery };
  console.log(`inbox: ${JSON.stringify(inbox)}`);
}

async function currentCursors(url: string, widgets: Widget[]): Promise<Widget[]> {
  const { rows: conversations } = await onPostgres(url, (client) => client.query<{ id: string; last_sequence: number }>("SELECT id, last_sequence FROM conversations"));
  const last = new Map(conversations.map((row) => [row.id, row.last_sequence]));
  return widgets.map((widget) => ({ ...widget, cursor: last.get(widget.conversationId) ?? widget.cursor }));
}

await main();

import type { HostPageScore } from "./host-page-score";
import type { DeliveryResult } from "./inbox";
import type { LoadResult } from "./load";
import type { OpenWidgetsResult } from "./open-widgets";
import type { DatabaseKind } from "./options";
import type { RuleLatency } from "./rule-latency";

// The bench's report: one table of request scenarios (PostgreSQL, PostgreSQL with webhooks and
// email, embedded), one of open widgets, the soak and the inbox, each figure next to its target
// (issue "Capacity 2", docs/performance.md).

export interface Row extends LoadResult {
  scenario: string;
  database: DatabaseKind;
  notifications: boolean;
  peakRssMiB: number;
  /** The server's CPU time per request, in µs: unlike req/s, barely moved by other work on the machine. */
  cpuUs: number;
  baseline?: LoadResult & { cpuUs: number };
  /** With notifications: webhook requests and emails received by the end of the run. */
  delivered?: { webhooks: number; emails: number };
  /** With --rules: the time spent after the service's turns waiting for the work it owed (outbox, rules' jobs, SLA marks). */
  settleMs?: number;
}

/** The suggestions in an open loop, on one server (the cache on, or off). */
export interface SuggestionRow extends LoadResult {
  server: string;
  /** The rate the visitors asked at (lookups sent per second), beside `rps`, the answers per second. */
  offeredRps: number;
  cpuUs: number;
  /** Different texts ÷ lookups: 1 minus this is the most a cache keyed on the text could answer. */
  distinctShare: number;
  /** p50 / p99 ms of the lookups whose text this server was not asked in the cache's lifetime (30 s) before ("first"), and of the rest ("repeat"). */
  firstAsked: [p50: number, p99: number];
  repeated: [p50: number, p99: number];
  peakRssMiB: number;
}

export type OpenRow = OpenWidgetsResult & { database: DatabaseKind; peakRssMiB: number };
export interface Soak {
  at10: number;
  atEnd: number;
  every10s: number[];
  growth: number;
}
export interface InboxRow {
  list: LoadResult;
  delivery: DeliveryResult;
}

const ratio = (service: number, base: number) => (base ? service / base : NaN);
const fixed = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–");
const verdict = (checks: boolean[]) => (checks.length === 0 ? "" : checks.every(Boolean) ? "met" : "**not met**");

/** The targets a row is held to, as text, and whether it meets them. */
function target(row: Row): [string, string] {
  const checks: [string, boolean][] = [];
  const base = row.baseline ? ratio(row.rps, row.baseline.rps) : NaN;
  if (row.scenario === "idle poll") checks.push(["p99 ≤ 50 ms", row.p99 <= 50]);
  const send = row.scenario.startsWith("send");
  if (send && row.database === "postgres") checks.push(["p99 ≤ 100 ms", row.p99 <= 100]);
  if ((row.scenario === "idle poll" || send) && row.baseline) checks.push(["≥ 0.8× baseline", base >= 0.8]);
  if (row.scenario === "start" && row.database === "postgres") checks.push(["≥ 1,000 req/s", row.rps >= 1000], ["p99 ≤ 150 ms", row.p99 <= 150]);
  if (row.scenario === "start" && row.database === "embedded") checks.push(["p99 ≤ 300 ms", row.p99 <= 300]);
  if (row.errors + row.non2xx > 0) checks.push(["no failures", false]);
  return [checks.map(([text]) => text).join(", "), verdict(checks.map(([, ok]) => ok))];
}

const databaseName = (row: { database: DatabaseKind; notifications?: boolean }) =>
  row.database === "embedded" ? "embedded (PGlite)" : row.notifications ? "PostgreSQL + webhooks, email" : "PostgreSQL";

export function formatReport(run: {
  startedAt: Date;
  commit: string;
  machine: string;
  load: string;
  seconds: number;
  connections: number;
  rows: Row[];
  soak: Soak | null;
  soakSeconds: number;
  open: OpenRow[];
  inbox: InboxRow | null;
  hostPage: HostPageScore | null;
  /** The suggestions part: its visitors, the site's published articles, the pause between a visitor's lookups, a row per server. */
  suggestions?: { visitors: number; articles: number; pauseMs: [number, number]; rows: SuggestionRow[] } | null;
  /** --rules: the rules and SLA policy installed for the second send row, and the rules' latency. */
  rules?: { count: number; sla: boolean; latency: RuleLatency | null } | null;
}): string {
  const { rows, soak, open, inbox, hostPage } = run;
  const delivered = rows.find((row) => row.delivered)?.delivered;
  const lines = [
    `Run ${run.startedAt.toISOString()}, commit ${run.commit}; ${run.machine}; ${run.load}.`,
    `Each request scenario: ${run.connections} connections in a closed loop for ${run.seconds} s after a 3 s warm-up; the baseline in the same run, the two taking turns in 4 slices each.` +
      (run.rules ? ` The send rows settle the service's backlog after each of its turns (the wait's CPU counted; "settled" below).` : ""),
    "",
    `| scenario | database | req/s | p50 ms | p99 ms | errors | non-2xx | peak RSS MiB | baseline req/s | baseline p99 ms | req/s ÷ baseline | CPU µs per request (baseline's) | baseline's CPU ÷ CPU per request | target | |`,
    `|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|`,
    ...rows.map((r) => {
      const [text, met] = target(r);
      const base = r.baseline;
      return `| ${r.scenario} | ${databaseName(r)} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.peakRssMiB} | ${base?.rps ?? "–"} | ${base?.p99 ?? "–"} | ${base ? fixed(ratio(r.rps, base.rps)) : "–"} | ${r.cpuUs}${base ? ` (${base.cpuUs})` : ""} | ${base ? fixed(ratio(base.cpuUs, r.cpuUs)) : "–"} | ${text} | ${met} |`;
    }),
    "",
    ...rows
      .filter((r) => r.settleMs !== undefined)
      .map((r) => {
        const sustained = Math.round(r.requests / (r.requests / r.rps + r.settleMs! / 1000));
        return `${r.scenario}: ${r.settleMs} ms spent settling the backlog after the service's ${r.requests} requests, so ${sustained} req/s sustained (÷ baseline ${r.baseline ? fixed(sustained / r.baseline.rps) : "–"}).`;
      }),
    run.rules?.latency
      ? `Rules (${run.rules.count} enabled${run.rules.sla ? ", an SLA policy" : ""}): ${run.rules.latency.events} visitors' messages at ${run.rules.latency.perSecond}/s, each labelled by a rule — from the message to the rule's timeline line p50 ${run.rules.latency.p50} ms, p99 ${run.rules.latency.p99} ms, max ${run.rules.latency.max} ms, ${run.rules.latency.landed}/${run.rules.latency.events} landed (target: p99 ≤ 1,000 ms) ${verdict([run.rules.latency.p99 <= 1000, run.rules.latency.landed === run.rules.latency.events])}.`
      : "",
    ...(run.suggestions
      ? [
          "",
          `Suggestions: ${run.suggestions.visitors} visitors typing in an open loop (a lookup every ${run.suggestions.pauseMs[0]}–${run.suggestions.pauseMs[1]} ms each), ${run.suggestions.articles.toLocaleString("en")} published articles; the two servers take turns in 4 slices.`,
          "",
          `| suggestions | lookups/s asked | answered/s | p50 ms | p99 ms | errors | non-2xx | CPU µs per lookup | different texts ÷ lookups | first asked in 30 s p50 / p99 | asked again p50 / p99 | peak RSS MiB | target (p99 ≤ 50 ms) |`,
          `|---|---|---|---|---|---|---|---|---|---|---|---|---|`,
          ...run.suggestions.rows.map(
            (r) => `| ${r.server} | ${r.offeredRps} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.cpuUs} | ${r.distinctShare} | ${r.firstAsked.join(" / ")} | ${r.repeated.join(" / ")} | ${r.peakRssMiB} | ${verdict([r.p99 <= 50, r.errors + r.non2xx === 0])} |`,
          ),
        ]
      : []),
    "",
    delivered ? `With webhooks and email: ${delivered.webhooks} webhook requests and ${delivered.emails} emails reached the local receiver and SMTP server during those scenarios.` : "",
    soak
      ? `Soak (idle poll, ${run.soakSeconds} s, ${run.connections} connections, PostgreSQL, first): RSS ${soak.at10} MiB at 10 s → ${soak.atEnd} MiB at the end (${soak.growth} %, target within 10 %); every 10 s: ${soak.every10s.join(", ")} MiB.`
      : "Soak: skipped.",
    "",
    `| open widgets | database | server instances | load processes | replies | delivered | delivery p50 ms | delivery p99 ms | errors | stale keep-alive GETs resent | peak RSS MiB (all instances) | target (p99 ≤ 1 s, 0 errors, RSS ≤ 2 GiB) |`,
    `|---|---|---|---|---|---|---|---|---|---|---|---|`,
    ...open.map(
      (o) =>
        `| ${o.widgets} | ${databaseName(o)} | ${o.instances} | ${o.processes} | ${o.replies} | ${o.delivered} | ${o.p50} | ${o.p99} | ${o.errors}${o.errors ? ` ${JSON.stringify(o.errorCauses)}` : ""} | ${o.staleConnectionRetries} | ${o.peakRssMiB} | ${verdict([o.p99 <= 1000, o.errors === 0, o.peakRssMiB <= 2048, o.delivered >= o.replies * 0.99])} |`,
    ),
    "",
    inbox
      ? [
          `| inbox (PostgreSQL) | figure |`,
          `|---|---|`,
          `| conversation list, first page, p50 / p99 ms | ${inbox.list.p50} / ${inbox.list.p99} (${inbox.list.rps} req/s, ${inbox.list.errors + inbox.list.non2xx} failures) |`,
          `| live delivery to ${inbox.delivery.agents} agents, p50 / p99 ms | ${inbox.delivery.p50} / ${inbox.delivery.p99} (${inbox.delivery.delivered}/${inbox.delivery.expected} delivered) |`,
        ].join("\n")
      : "Inbox: skipped.",
    "",
    hostPage
      ? [
          `| the demo page, Lighthouse (mobile, simulated throttling), median of ${hostPage.runs} | performance score | Total Blocking Time ms |`,
          `|---|---|---|`,
          `| without the widget's tag | ${hostPage.withoutTag.score} | ${hostPage.withoutTag.tbtMs} |`,
          `| with the tag | ${hostPage.withTag.score} | ${hostPage.withTag.tbtMs} |`,
          `| difference (target: score 0, TBT ≤ 10 ms) | ${hostPage.withTag.score - hostPage.withoutTag.score} | ${hostPage.withTag.tbtMs - hostPage.withoutTag.tbtMs} ${verdict([hostPage.withTag.score >= hostPage.withoutTag.score, hostPage.withTag.tbtMs - hostPage.withoutTag.tbtMs <= 10])} |`,
        ].join("\n")
      : "Host page score: skipped.",
  ];
  return `${lines.join("\n")}\n`;
}

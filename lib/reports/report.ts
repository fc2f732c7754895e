import type { z } from "zod";
import { AppError } from "../core/errors";
import type { report as reportShape, ReportGroup, ReportQuery } from "../contracts/reports";
import { dayFactsIn, slaMetIn, type DayFacts, type RangeFilter, type SlaMetRow } from "./cycle-statements";
import { measureStaleConversations } from "./cycles";
import { memberNames, siteSchedules } from "./statements";

// GET /inbox/reports and /inbox/reports.csv (docs/reports.md): the cycles measured by
// lib/reports/metrics.ts (the one place of the definitions) and kept in conversation_cycles
// (./cycles.ts), summed per UTC day and member by SQL, then counted here. Days and weeks are UTC; a
// member is the conversation's assigned member.

export type Report = z.infer<typeof reportShape>;
type Figures = Omit<Report, "from" | "to" | "site" | "member" | "group" | "series" | "sla">;

const DAY_MS = 86_400_000;

/** 404 for an unknown site; then measures what is stale, so a report counts every change made before it. */
export async function measureFor(query: RangeFilter): Promise<void> {
  if (query.site && (await siteSchedules(query.site)).length === 0) throw new AppError("site_not_found", "No site has this identifier.");
  await measureStaleConversations();
}

export async function buildReport(query: ReportQuery): Promise<Report> {
  const [report] = await buildReports(query, [query.group]);
  return report!;
}

/** One measurement of the range, answered grouped each way asked (the Reports page shows two). */
export async function buildReports(query: RangeFilter, groups: readonly ReportGroup[]): Promise<Report[]> {
  await measureFor(query);
  const [facts, slaRows] = await Promise.all([dayFactsIn(query), slaMetIn(query)]);
  const figures = figuresOf(facts);
  const sla = slaFigures(slaRows);
  return Promise.all(
    groups.map(async (group) => ({
      from: query.from.toISOString(),
      to: query.to.toISOString(),
      site: query.site,
      member: query.member,
      group,
      ...figures,
      series: group === "member" ? await memberSeries(facts) : timeSeries(facts, query, group),
      sla,
    })),
  );
}

function figuresOf(facts: readonly DayFacts[]): Figures {
  const byScore = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  let total = 0;
  let count = 0;
  for (const day of facts) {
    day.ratings.forEach((times, index) => {
      byScore[(index + 1) as keyof typeof byScore] += times;
      total += times * (index + 1);
      count += times;
    });
  }
  return {
    conversations: { started: sum(facts, (day) => day.started), closed: sum(facts, (day) => day.closed) },
    first_response: durations(facts.flatMap((day) => day.firstResponses)),
    resolution: durations(facts.flatMap((day) => day.resolutions)),
    rating: { average: count === 0 ? null : Math.round((total / count) * 100) / 100, count, by_score: byScore },
  };
}

const sum = (facts: readonly DayFacts[], of: (day: DayFacts) => number) => facts.reduce((total, day) => total + of(day), 0);

/** Median (the mean of the two middle values when even, rounded) and p90 by nearest rank. */
function durations(values: number[]) {
  const sorted = values.sort((a, b) => a - b);
  const count = sorted.length;
  if (count === 0) return { median_s: null, p90_s: null, count };
  const middle = Math.floor(count / 2);
  const median = count % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
  return { median_s: median, p90_s: sorted[Math.ceil(0.9 * count) - 1]!, count };
}

const dayKey = (at: Date) => at.toISOString().slice(0, 10);
/** The Monday (UTC) of `at`'s week. */
const weekKey = (at: Date) => dayKey(new Date(at.getTime() - ((at.getUTCDay() + 6) % 7) * DAY_MS));

function timeSeries(facts: DayFacts[], query: RangeFilter, group: "day" | "week"): Report["series"] {
  const keyOf = group === "week" ? weekKey : dayKey;
  const keys: string[] = [];
  for (let at = query.from.getTime(); at < query.to.getTime(); at += DAY_MS) {
    const key = keyOf(new Date(at));
    if (keys.at(-1) !== key) keys.push(key);
  }
  const last = keyOf(new Date(query.to.getTime() - 1));
  if (keys.at(-1) !== last) keys.push(last);
  const buckets = split(facts, (day) => keyOf(new Date(`${day.day}T00:00:00Z`)));
  return keys.map((key) => ({ key, label: key, ...figuresOf(buckets.get(key) ?? []) }));
}

async function memberSeries(facts: DayFacts[]): Promise<Report["series"]> {
  const buckets = split(facts, (day) => day.memberId);
  const names = await memberNames([...buckets.keys()].filter((key): key is string => key !== null));
  const label = (key: string | null) => (key === null ? "Unassigned" : (names.get(key) ?? key));
  return [...buckets.entries()]
    .map(([key, bucket]) => ({ key, label: label(key), ...figuresOf(bucket) }))
    .sort((a, b) => (a.key === null ? 1 : b.key === null ? -1 : a.label.localeCompare(b.label)));
}

function split<Key>(facts: DayFacts[], keyOf: (day: DayFacts) => Key): Map<Key, DayFacts[]> {
  const buckets = new Map<Key, DayFacts[]>();
  for (const day of facts) {
    const key = keyOf(day);
    buckets.get(key)?.push(day) ?? buckets.set(key, [day]);
  }
  return buckets;
}

const percent = (met: number, missed: number) => (met + missed === 0 ? null : Math.round((met / (met + missed)) * 1000) / 10);

/** "% of SLAs met" in all, per policy, team and member (docs/sla.md). */
function slaFigures(rows: readonly SlaMetRow[]): Report["sla"] {
  const group = (keyOf: (row: SlaMetRow) => string | null, labelOf: (row: SlaMetRow) => string) => {
    const groups = new Map<string | null, { key: string | null; label: string; met: number; missed: number }>();
    for (const row of rows) {
      const key = keyOf(row);
      const entry = groups.get(key) ?? groups.set(key, { key, label: labelOf(row), met: 0, missed: 0 }).get(key)!;
      entry.met += row.met;
      entry.missed += row.missed;
    }
    return [...groups.values()]
      .map((entry) => ({ ...entry, percent_met: percent(entry.met, entry.missed) }))
      .sort((a, b) => (a.key === null ? 1 : b.key === null ? -1 : a.label.localeCompare(b.label)));
  };
  const met = rows.reduce((total, row) => total + row.met, 0);
  const missed = rows.reduce((total, row) => total + row.missed, 0);
  return {
    met,
    missed,
    percent_met: percent(met, missed),
    by_policy: group((row) => row.policy_id, (row) => row.policy_name ?? "Deleted policy"),
    by_team: group((row) => row.team_id, (row) => (row.team_id === null ? "No team" : (row.team_name ?? "Deleted team"))),
    by_member: group((row) => row.member_id, (row) => (row.member_id === null ? "Nobody" : (row.member_name ?? "Former member"))),
  };
}

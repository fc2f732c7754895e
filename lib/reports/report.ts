import type { z } from "zod";
import { AppError } from "../core/errors";
import type { report as reportShape, ReportGroup, ReportQuery } from "../contracts/reports";
import { hoursClock, type HoursClock } from "./hours-clock";
import { measureCycles, type Cycle } from "./metrics";
import { memberNames, ratingsGivenIn, siteSchedules, timelinesActiveIn, type RangeFilter } from "./statements";

// GET /inbox/reports and /inbox/reports.csv (docs/reports.md): the range's timelines read by SQL,
// each measured by lib/reports/metrics.ts (the one place of the definitions), then counted here.
// Days and weeks are UTC; a member is the conversation's assigned member.

export type Report = z.infer<typeof reportShape>;
type Figures = Omit<Report, "from" | "to" | "site" | "member" | "group" | "series">;

const DAY_MS = 86_400_000;

export interface MeasuredCycle {
  conversationId: string;
  siteId: string;
  memberId: string | null;
  /** 1 for the conversation's first cycle. */
  number: number;
  cycle: Cycle;
}

interface RangeFacts {
  /** Cycles started in the range. */
  cycles: MeasuredCycle[];
  started: { at: Date; memberId: string | null }[];
  closes: { at: Date; memberId: string | null }[];
  ratings: { score: number; createdAt: Date; assignedMemberId: string | null }[];
}

/** Every cycle started in the range, measured with its site's hours. */
export async function measureRange(query: RangeFilter): Promise<RangeFacts> {
  const schedules = await siteSchedules(query.site);
  if (query.site && schedules.length === 0) throw new AppError("site_not_found", "No site has this identifier.");
  // A cycle started in the range may close weeks later: the clock widens itself when asked.
  const cover = { from: new Date(query.from.getTime() - DAY_MS), to: new Date(query.to.getTime() + 7 * DAY_MS) };
  const clocks = new Map<string, HoursClock>(schedules.map((schedule) => [schedule.siteId, hoursClock(schedule, cover)]));
  const [timelines, ratings] = await Promise.all([timelinesActiveIn(query), ratingsGivenIn(query)]);
  const inRange = (at: Date) => at >= query.from && at < query.to;
  const facts: RangeFacts = { cycles: [], started: [], closes: [], ratings };
  for (const conversation of timelines) {
    const memberId = conversation.assignedMemberId;
    if (inRange(conversation.createdAt)) facts.started.push({ at: conversation.createdAt, memberId });
    for (const entry of conversation.timeline) if (entry.kind === "closed" && inRange(entry.at)) facts.closes.push({ at: entry.at, memberId });
    const cycles = measureCycles(conversation.timeline, clocks.get(conversation.siteId) ?? hoursClock(null));
    cycles.forEach((cycle, index) => {
      if (inRange(cycle.startedAt)) facts.cycles.push({ conversationId: conversation.conversationId, siteId: conversation.siteId, memberId, number: index + 1, cycle });
    });
  }
  return facts;
}

export async function buildReport(query: ReportQuery): Promise<Report> {
  const [report] = await buildReports(query, [query.group]);
  return report!;
}

/** One measurement of the range, answered grouped each way asked (the Reports page shows two). */
export async function buildReports(query: RangeFilter, groups: readonly ReportGroup[]): Promise<Report[]> {
  const facts = await measureRange(query);
  const figures = figuresOf(facts);
  return Promise.all(
    groups.map(async (group) => ({
      from: query.from.toISOString(),
      to: query.to.toISOString(),
      site: query.site,
      member: query.member,
      group,
      ...figures,
      series: group === "member" ? await memberSeries(facts) : timeSeries(facts, query, group),
    })),
  );
}

function figuresOf(facts: RangeFacts): Figures {
  const byScore = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  for (const rating of facts.ratings) byScore[rating.score as keyof typeof byScore]++;
  const total = facts.ratings.reduce((sum, rating) => sum + rating.score, 0);
  return {
    conversations: { started: facts.started.length, closed: facts.closes.length },
    first_response: durations(facts.cycles.map(({ cycle }) => cycle.firstResponse?.seconds)),
    resolution: durations(facts.cycles.map(({ cycle }) => cycle.resolution?.seconds)),
    rating: {
      average: facts.ratings.length === 0 ? null : Math.round((total / facts.ratings.length) * 100) / 100,
      count: facts.ratings.length,
      by_score: byScore,
    },
  };
}

/** Median (the mean of the two middle values when even, rounded) and p90 by nearest rank. */
function durations(values: (number | undefined)[]) {
  const sorted = values.filter((value): value is number => value !== undefined).sort((a, b) => a - b);
  const count = sorted.length;
  if (count === 0) return { median_s: null, p90_s: null, count };
  const middle = Math.floor(count / 2);
  const median = count % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
  return { median_s: median, p90_s: sorted[Math.ceil(0.9 * count) - 1]!, count };
}

const dayKey = (at: Date) => at.toISOString().slice(0, 10);
/** The Monday (UTC) of `at`'s week. */
const weekKey = (at: Date) => dayKey(new Date(at.getTime() - ((at.getUTCDay() + 6) % 7) * DAY_MS));

function timeSeries(facts: RangeFacts, query: RangeFilter, group: "day" | "week"): Report["series"] {
  const keyOf = group === "week" ? weekKey : dayKey;
  const keys: string[] = [];
  for (let at = query.from.getTime(); at < query.to.getTime(); at += DAY_MS) {
    const key = keyOf(new Date(at));
    if (keys.at(-1) !== key) keys.push(key);
  }
  const last = keyOf(new Date(query.to.getTime() - 1));
  if (keys.at(-1) !== last) keys.push(last);
  const buckets = split(facts, (at) => keyOf(at));
  return keys.map((key) => ({ key, label: key, ...figuresOf(buckets.get(key) ?? emptyFacts()) }));
}

async function memberSeries(facts: RangeFacts): Promise<Report["series"]> {
  const buckets = split(facts, (_at, memberId) => memberId);
  const names = await memberNames([...buckets.keys()].filter((key): key is string => key !== null));
  const label = (key: string | null) => (key === null ? "Unassigned" : (names.get(key) ?? key));
  return [...buckets.entries()]
    .map(([key, bucket]) => ({ key, label: label(key), ...figuresOf(bucket) }))
    .sort((a, b) => (a.key === null ? 1 : b.key === null ? -1 : a.label.localeCompare(b.label)));
}

const emptyFacts = (): RangeFacts => ({ cycles: [], started: [], closes: [], ratings: [] });

function split<Key>(facts: RangeFacts, keyOf: (at: Date, memberId: string | null) => Key): Map<Key, RangeFacts> {
  const buckets = new Map<Key, RangeFacts>();
  const bucket = (key: Key) => buckets.get(key) ?? buckets.set(key, emptyFacts()).get(key)!;
  for (const cycle of facts.cycles) bucket(keyOf(cycle.cycle.startedAt, cycle.memberId)).cycles.push(cycle);
  for (const started of facts.started) bucket(keyOf(started.at, started.memberId)).started.push(started);
  for (const close of facts.closes) bucket(keyOf(close.at, close.memberId)).closes.push(close);
  for (const rating of facts.ratings) bucket(keyOf(rating.createdAt, rating.assignedMemberId)).ratings.push(rating);
  return buckets;
}

import type { HoursClock } from "./hours-clock";

// The one place the report definitions live (decisions.md, round 3, "Satisfaction and reports";
// docs/reports.md). The conversation reads, the reports API, the Reports page and the CSV all
// measure through measureCycles.
// - A conversation's cycles start at its first visitor message and at each reopen.
// - First response: from the cycle's first visitor message to the first public message after it
//   by a member who is not a bot; resolution: from the cycle's start to its close.
// - Both in whole seconds, counted only inside the site's hours when it has hours.

/** A conversation's public timeline: what the definitions look at, in sequence order. */
export type TimelineEntry =
  | { at: Date; kind: "visitor" }
  | { at: Date; kind: "staff"; bot: boolean; memberId?: string | null }
  | { at: Date; kind: "closed"; memberId?: string | null }
  | { at: Date; kind: "reopened" };

export interface MeasuredSpan {
  /** Whole seconds counted (inside the site's hours, when it has hours). */
  seconds: number;
  /** Whole seconds outside the hours, not counted. */
  skippedSeconds: number;
}

export interface Cycle {
  startedAt: Date;
  /** The cycle's first visitor message; null when the visitor did not write after a reopen. */
  firstVisitorAt: Date | null;
  respondedAt: Date | null;
  /** The member who sent the first response (reports credit them, whoever is assigned now). */
  responderId: string | null;
  closedAt: Date | null;
  /** The member who closed the cycle; null when the operator API or an automatic close did. */
  closedById: string | null;
  firstResponse: MeasuredSpan | null;
  resolution: MeasuredSpan | null;
  /** Bot replies between the first visitor message and the human response (not responses). */
  botRepliesIgnored: number;
}

interface OpenCycle {
  startedAt: Date;
  firstVisitorAt: Date | null;
  respondedAt: Date | null;
  responderId: string | null;
  closedAt: Date | null;
  closedById: string | null;
  botRepliesIgnored: number;
}

/** The cycles of one conversation, measured with its site's clock. */
export function measureCycles(timeline: readonly TimelineEntry[], clock: HoursClock): Cycle[] {
  const cycles: OpenCycle[] = [];
  let current: OpenCycle | null = null;
  for (const entry of timeline) {
    if (entry.kind === "visitor") {
      if (!current && cycles.length === 0) cycles.push((current = newCycle(entry.at, entry.at)));
      if (current && !current.firstVisitorAt) current.firstVisitorAt = entry.at;
    } else if (entry.kind === "reopened") {
      cycles.push((current = newCycle(entry.at, null)));
    } else if (entry.kind === "closed") {
      if (current) {
        current.closedAt = entry.at;
        current.closedById = entry.memberId ?? null;
      }
      current = null;
    } else if (current?.firstVisitorAt && !current.respondedAt) {
      if (entry.bot) current.botRepliesIgnored++;
      else {
        current.respondedAt = entry.at;
        current.responderId = entry.memberId ?? null;
      }
    }
  }
  return cycles.map((cycle) => ({
    ...cycle,
    firstResponse: cycle.firstVisitorAt && cycle.respondedAt ? measure(clock, cycle.firstVisitorAt, cycle.respondedAt) : null,
    resolution: cycle.closedAt ? measure(clock, cycle.startedAt, cycle.closedAt) : null,
  }));
}

const newCycle = (startedAt: Date, firstVisitorAt: Date | null): OpenCycle => ({
  startedAt,
  firstVisitorAt,
  respondedAt: null,
  responderId: null,
  closedAt: null,
  closedById: null,
  botRepliesIgnored: 0,
});

function measure(clock: HoursClock, from: Date, to: Date): MeasuredSpan {
  const { insideMs, outsideMs } = clock.split(from, to);
  return { seconds: Math.round(insideMs / 1000), skippedSeconds: Math.round(outsideMs / 1000) };
}

/** The wire shape of a staff read's `metrics` (decisions.md). */
export interface WireMetrics {
  cycles: { started_at: string; first_response_s: number | null; resolution_s: number | null }[];
}

export const toWireMetrics = (cycles: readonly Cycle[]): WireMetrics => ({
  cycles: cycles.map((cycle) => ({
    started_at: cycle.startedAt.toISOString(),
    first_response_s: cycle.firstResponse?.seconds ?? null,
    resolution_s: cycle.resolution?.seconds ?? null,
  })),
});

/** Why a cycle's figures are what they are, for people: "counted 12 min inside hours; 9 h outside hours skipped; bot reply ignored". */
export function explainCycle(cycle: Cycle, hasHours: boolean): { firstResponse: string; resolution: string } {
  const bots = cycle.botRepliesIgnored === 0 ? "" : `; ${cycle.botRepliesIgnored === 1 ? "bot reply" : `${cycle.botRepliesIgnored} bot replies`} ignored`;
  const firstResponse = cycle.firstResponse
    ? `${explainSpan(cycle.firstResponse, hasHours)}${bots}`
    : `${cycle.firstVisitorAt ? "no reply from a person yet" : "the visitor has not written since the reopen"}${bots}`;
  const resolution = cycle.resolution ? explainSpan(cycle.resolution, hasHours) : "not closed yet";
  return { firstResponse, resolution };
}

function explainSpan(span: MeasuredSpan, hasHours: boolean): string {
  if (!hasHours) return `counted ${formatDuration(span.seconds)} (the site has no service hours)`;
  const counted = `counted ${formatDuration(span.seconds)} inside hours`;
  return span.skippedSeconds > 0 ? `${counted}; ${formatDuration(span.skippedSeconds)} outside hours skipped` : counted;
}

/** "45 s", "12 min", "9 h", "9 h 5 min", "2 d 3 h": rounded to the two largest units. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

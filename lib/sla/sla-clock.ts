import type { HoursClock, SpanSplit } from "../reports/hours-clock";
import type { Interval } from "../service-hours/service-hours";

// The SLA clock (docs/sla.md, "The SLA clock"): the reports' clock (lib/reports/hours-clock.ts, the
// site's hours when a policy counts business hours, else every minute), with the conversation's
// snoozes taken out: time spent snoozed never counts toward a target.

export interface SlaClock extends HoursClock {
  /** Counted, outside the hours, and snoozed (inside the hours) milliseconds of a span. */
  explain(from: Date, to: Date): { countedMs: number; outsideMs: number; snoozedMs: number };
}

/** `pauses`: the snoozes, sorted or not, in ms (end excluded). */
export function slaClock(hours: HoursClock, pauses: readonly Interval[]): SlaClock {
  const sorted = pauses.filter((pause) => pause.end > pause.start).sort((a, b) => a.start - b.start);
  /** Counted time the pauses take out of [from, to). */
  const pausedInside = (from: number, to: number) => {
    let paused = 0;
    let covered = from; // pauses may overlap: count each instant once
    for (const pause of sorted) {
      const start = Math.max(pause.start, covered);
      const end = Math.min(pause.end, to);
      if (end <= start) continue;
      paused += hours.split(new Date(start), new Date(end)).insideMs;
      covered = end;
    }
    return paused;
  };
  const split = (fromDate: Date, toDate: Date): SpanSplit => {
    const base = hours.split(fromDate, toDate);
    const paused = pausedInside(fromDate.getTime(), Math.max(fromDate.getTime(), toDate.getTime()));
    return { insideMs: base.insideMs - paused, outsideMs: base.outsideMs + paused };
  };
  return {
    hasHours: hours.hasHours,
    split,
    reach(from, ms) {
      // Spend `ms` of counted time up to each pause, skip the pause, go on after it.
      let cursor = from.getTime();
      let left = Math.max(0, ms);
      for (const pause of sorted) {
        if (pause.end <= cursor) continue;
        const candidate = hours.reach(new Date(cursor), left);
        if (!candidate || candidate.getTime() <= pause.start) return candidate;
        if (pause.start > cursor) left -= hours.split(new Date(cursor), new Date(pause.start)).insideMs;
        cursor = pause.end;
      }
      return hours.reach(new Date(cursor), left);
    },
    explain(fromDate, toDate) {
      const from = fromDate.getTime();
      const to = Math.max(from, toDate.getTime());
      const base = hours.split(fromDate, new Date(to));
      const snoozedMs = pausedInside(from, to);
      return { countedMs: base.insideMs - snoozedMs, outsideMs: base.outsideMs, snoozedMs };
    },
  };
}

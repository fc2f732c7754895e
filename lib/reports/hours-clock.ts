import { openIntervals, type Interval, type ServiceHours } from "../service-hours/service-hours";

// How much of a span fell inside a site's hours. The hours' periods come from lib/service-hours
// (holidays and DST through Intl); a report measures thousands of spans of one site, so the clock
// keeps the periods of the widest span it was asked about and answers each span by a binary search.

export interface SpanSplit {
  /** Milliseconds inside the site's hours (all of the span when the site has no hours). */
  insideMs: number;
  outsideMs: number;
}

export interface HoursClock {
  /** Whether the site has hours (otherwise every span counts whole). */
  hasHours: boolean;
  split(from: Date, to: Date): SpanSplit;
  /**
   * The instant at which `ms` of counted time have passed since `from` (split's inverse: an SLA's
   * due time); null when the hours never give that much within REACH_LIMIT_DAYS.
   */
  reach(from: Date, ms: number): Date | null;
}

/** How far ahead a due time is looked for: hours that open less than this never reach it. */
export const REACH_LIMIT_DAYS = 400;
const DAY_MS = 86_400_000;

/** `schedule` null, or its `hours` null: always open. `cover` widens the first computation (a report's range). */
export function hoursClock(schedule: ServiceHours | null, cover?: { from: Date; to: Date }): HoursClock {
  if (!schedule?.hours) {
    return {
      hasHours: false,
      split: (from, to) => ({ insideMs: Math.max(0, to.getTime() - from.getTime()), outsideMs: 0 }),
      reach: (from, ms) => new Date(from.getTime() + Math.max(0, ms)),
    };
  }
  const hours = schedule;
  let coveredFrom = cover?.from.getTime() ?? Infinity;
  let coveredTo = cover?.to.getTime() ?? -Infinity;
  let intervals: Interval[] = cover ? openIntervals(schedule, coveredFrom, coveredTo) : [];
  return {
    hasHours: true,
    split(fromDate, toDate) {
      const from = fromDate.getTime();
      const to = Math.max(from, toDate.getTime());
      if (from < coveredFrom || to > coveredTo) {
        coveredFrom = Math.min(from, coveredFrom);
        coveredTo = Math.max(to, coveredTo);
        intervals = openIntervals(schedule, coveredFrom, coveredTo);
      }
      let inside = 0;
      for (let index = firstEndingAfter(intervals, from); index < intervals.length; index++) {
        const interval = intervals[index]!;
        if (interval.start >= to) break;
        inside += Math.min(to, interval.end) - Math.max(from, interval.start);
      }
      return { insideMs: inside, outsideMs: to - from - inside };
    },
    reach(fromDate, ms) {
      const from = fromDate.getTime();
      let left = Math.max(0, ms);
      if (left === 0) return new Date(from);
      // Walk the open intervals forward a window at a time (a week, then wider), spending `left`.
      let windowStart = from;
      for (let days = 7; windowStart - from < REACH_LIMIT_DAYS * DAY_MS; days *= 2) {
        const windowEnd = Math.min(windowStart + days * DAY_MS, from + REACH_LIMIT_DAYS * DAY_MS);
        for (const interval of openIntervals(hours, windowStart, windowEnd)) {
          const start = Math.max(interval.start, windowStart);
          const end = Math.min(interval.end, windowEnd);
          if (end - start >= left) return new Date(start + left);
          left -= Math.max(0, end - start);
        }
        windowStart = windowEnd;
      }
      return null;
    },
  };
}

/** The index of the first interval ending after `at` (they are sorted and disjoint). */
function firstEndingAfter(intervals: Interval[], at: number): number {
  let low = 0;
  let high = intervals.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (intervals[middle]!.end <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

import { addDays, instantAt, isoDate, localDayAt, weekdayOf, type LocalDay } from "./zone-time";

// When a site's team works (docs/service-hours.md). A period belongs to the day it starts on: an
// overnight period ["22:00","02:00"] opens on its day and runs into the next, even when the next
// is a holiday; a holiday cancels only the periods that start on it.

export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** ["HH:MM","HH:MM"]: an end at or before the start runs into the next day; "24:00" ends at midnight. */
export type Period = readonly [string, string];

export interface ServiceHours {
  /** IANA zone the periods and holidays are read in. */
  timezone: string;
  /** null: always open. A day without periods is closed. */
  hours: Partial<Record<Weekday, readonly Period[]>> | null;
  /** Dates (YYYY-MM-DD) in the site's zone on which no period starts. */
  holidays: readonly string[];
}

export interface ServiceStatus {
  open: boolean;
  /** When it opens next; null while open, or when no period ever opens. */
  nextOpenAt: Date | null;
  /** An instant at or before the next change of `open` (how long an answer may be kept); null: never changes. */
  changesAt: Date | null;
}

/** Instants in milliseconds, end excluded. */
export interface Interval {
  start: number;
  end: number;
}

/** Holidays can close a long run of days; a year and a week is as far as the next opening is looked for. */
const SEARCH_DAYS = 373;

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

function intervalsOn(schedule: ServiceHours, day: LocalDay): Interval[] {
  if (schedule.holidays.includes(isoDate(day))) return [];
  const periods = schedule.hours?.[WEEKDAYS[weekdayOf(day)]!] ?? [];
  return periods.map(([from, to]) => {
    const start = minutesOf(from);
    const end = minutesOf(to) > start ? minutesOf(to) : minutesOf(to) + 24 * 60;
    return { start: instantAt(schedule.timezone, day, start), end: instantAt(schedule.timezone, day, end) };
  });
}

/** Periods of `days` local days from the day before `at`, merged where they touch or overlap. */
function mergedIntervals(schedule: ServiceHours, at: number, days: number): Interval[] {
  const first = addDays(localDayAt(schedule.timezone, at), -1);
  const all: Interval[] = [];
  for (let offset = 0; offset < days; offset++) all.push(...intervalsOn(schedule, addDays(first, offset)));
  all.sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const interval of all) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}

/** The team's working time overlapping [from, to) (ms), merged; hours null: all of it. */
export function openIntervals(schedule: ServiceHours, from: number, to: number): Interval[] {
  if (!schedule.hours) return [{ start: from, end: to }];
  // From the day before `from` (an overnight period may cover it) to the day after `to`.
  const days = Math.ceil((to - from) / 86_400_000) + 3;
  return mergedIntervals(schedule, from, days).filter((interval) => interval.end > from && interval.start < to);
}

const opensNever = (schedule: ServiceHours) => WEEKDAYS.every((day) => (schedule.hours?.[day] ?? []).length === 0);

/** Whether the team works at `at`, and when that changes. */
export function serviceStatus(schedule: ServiceHours, at: Date): ServiceStatus {
  if (!schedule.hours) return { open: true, nextOpenAt: null, changesAt: null };
  if (opensNever(schedule)) return { open: false, nextOpenAt: null, changesAt: null };
  const now = at.getTime();
  // Yesterday to tomorrow holds every period that can cover `at` and, most days, the next opening;
  // a period running past tomorrow ends the window early, which only shortens changesAt.
  const near = mergedIntervals(schedule, now, 3);
  const current = near.find((interval) => interval.start <= now && now < interval.end);
  if (current) return { open: true, nextOpenAt: null, changesAt: new Date(current.end) };
  const after = (intervals: Interval[]) => intervals.find((interval) => interval.start > now)?.start;
  const next = after(near) ?? after(mergedIntervals(schedule, now, SEARCH_DAYS));
  const nextOpenAt = next === undefined ? null : new Date(next);
  return { open: false, nextOpenAt, changesAt: nextOpenAt };
}

export const isOpen = (schedule: ServiceHours, at: Date) => serviceStatus(schedule, at).open;
export const nextOpenAt = (schedule: ServiceHours, at: Date) => serviceStatus(schedule, at).nextOpenAt;

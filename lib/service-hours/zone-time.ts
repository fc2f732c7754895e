// Wall-clock time in an IANA zone, read and written through Intl.DateTimeFormat: the zone's
// offsets (and so its DST switches) come from the runtime's time zone database, never from here.

/** A calendar day, as in the zone's calendar. */
export interface LocalDay {
  year: number;
  month: number; // 1..12
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock in `timeZone` at `instant`, as if it were a UTC time (milliseconds). */
function wallClockAsUtc(timeZone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
}

/** The zone's offset from UTC at `instant`, in milliseconds (whole seconds). */
function offsetAt(timeZone: string, instant: number): number {
  return wallClockAsUtc(timeZone, instant) - (instant - (((instant % 1000) + 1000) % 1000));
}

/** The calendar day in `timeZone` at `instant`. */
export function localDayAt(timeZone: string, instant: number): LocalDay {
  const wall = new Date(wallClockAsUtc(timeZone, instant));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

/** `day` moved by `days` calendar days (no clock involved). */
export function addDays({ year, month, day }: LocalDay, days: number): LocalDay {
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** 0 = Sunday … 6 = Saturday. */
export const weekdayOf = ({ year, month, day }: LocalDay) => new Date(Date.UTC(year, month - 1, day)).getUTCDay();

export const isoDate = ({ year, month, day }: LocalDay) =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/**
 * The instant at which the clock in `timeZone` shows `minutes` past midnight of `day` (minutes may
 * reach 24 h and beyond: the next day's). As Temporal's "compatible" choice: a repeated wall time
 * (clocks set back) is its first occurrence; a skipped one (clocks set forward) is moved later by
 * the length of the gap, so 02:30 on the day Berlin skips 02:00-03:00 is 03:30.
 */
export function instantAt(timeZone: string, day: LocalDay, minutes: number): number {
  const wall = Date.UTC(day.year, day.month - 1, day.day) + minutes * 60_000;
  const before = offsetAt(timeZone, wall - 86_400_000);
  const after = offsetAt(timeZone, wall + 86_400_000);
  const fits = [wall - before, wall - after].filter((instant) => wallClockAsUtc(timeZone, instant) === wall);
  if (fits.length > 0) return Math.min(...fits);
  return wall - before; // in the gap: the offset before the switch carries it past the gap
}

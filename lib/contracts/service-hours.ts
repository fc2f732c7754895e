import { z } from "zod";
import { canonicalTimeZone } from "../core/validation/time-zone";
import { requiredText } from "../core/validation/strings";

// A site's service hours on the wire (decisions.md, round 3; docs/service-hours.md): the same
// shape in requests and answers, days in the week's order from Monday.

export const HOURS_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
const MAX_PERIODS_PER_DAY = 8;
const MAX_HOLIDAYS = 366;

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time as HH:MM (00:00-23:59)");
const endTime = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, "must be a time as HH:MM (00:00-24:00)");

/** [start, end]: an end at or before the start runs into the next day; equal times are refused. */
const period = z.tuple([time, endTime]).refine(([start, end]) => start !== end, "start and end must differ");

const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`); // Feb 30 rolls into March, "25.12.2026" is no date
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, "must be a real calendar date");

const week = z.strictObject(Object.fromEntries(HOURS_DAYS.map((day) => [day, z.array(period).max(MAX_PERIODS_PER_DAY)])) as Record<
  (typeof HOURS_DAYS)[number],
  z.ZodArray<typeof period>
>);

/** Stored and answered with every day present: a day left out of a request is closed. */
export const weekHours = week.describe("periods per day in the site's time zone; [] closed that day");

export const serviceHoursFields = {
  timezone: z
    .string()
    .max(64)
    .transform((name, ctx) => canonicalTimeZone(name) ?? (ctx.addIssue({ code: "custom", message: "must be an IANA time zone such as Europe/Berlin" }), z.NEVER))
    .optional(),
  hours: week
    .partial()
    .transform((days) => Object.fromEntries(HOURS_DAYS.map((day) => [day, days[day] ?? []])) as z.output<typeof week>)
    .nullable()
    .optional(),
  holidays: z
    .array(calendarDate)
    .max(MAX_HOLIDAYS)
    .transform((dates) => [...new Set(dates)].sort())
    .optional(),
  away_message: requiredText(500).nullable().optional(),
};

export type WeekHours = z.output<typeof week>;

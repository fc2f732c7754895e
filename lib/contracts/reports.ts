import { z } from "zod";
import { isoTime, named } from "./wire";

// Reports (decisions.md, round 3, "Satisfaction and reports"; docs/reports.md): the query of
// GET /inbox/reports and /inbox/reports.csv, and the answer's shape.

const DAY_MS = 86_400_000;
export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;
export const REPORT_GROUPS = ["day", "week", "member"] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** A date (YYYY-MM-DD, a whole UTC day) or an instant (ISO 8601 with an offset). */
// A date by pattern, not `format: date`: the API document keeps to the formats every validator knows.
const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, "must be a real calendar date");
const dayOrInstant = z.union([calendarDay, z.iso.datetime({ offset: true })], {
  error: "must be a date as YYYY-MM-DD or an ISO 8601 time with an offset",
});

const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const startOf = (value: string) => new Date(isDate(value) ? `${value}T00:00:00Z` : value);
/** `to` as a date includes that day; as an instant it is the end, excluded. */
const endOf = (value: string) => (isDate(value) ? new Date(startOf(value).getTime() + DAY_MS) : new Date(value));
const todayEnd = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS);

export const reportQuery = z
  .strictObject({
    site: z.string().min(1).max(100).optional(),
    member: z.string().min(1).max(100).optional().describe("an extension: only conversations assigned to this member"),
    from: dayOrInstant.optional(),
    to: dayOrInstant.optional(),
    group: z.enum(REPORT_GROUPS).default("day"),
  })
  .transform(({ site, member, from, to, group }) => {
    const end = to ? endOf(to) : todayEnd(new Date());
    const start = from ? startOf(from) : new Date(end.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
    return { site: site ?? null, member: member ?? null, from: start, to: end, group };
  })
  .check((context) => {
    const { from, to } = context.value;
    if (from.getTime() >= to.getTime()) context.issues.push({ code: "custom", input: context.value, path: ["to"], message: "must be after from" });
    else if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS)
      context.issues.push({ code: "custom", input: context.value, path: ["to"], message: `the range must be at most ${MAX_RANGE_DAYS} days` });
  });
export type ReportQuery = z.output<typeof reportQuery>;

const durations = z.object({
  median_s: z.int().min(0).nullable(),
  p90_s: z.int().min(0).nullable().describe("nearest rank"),
  count: z.int().min(0).describe("cycles with a value (a response, a close) among those started in the range"),
});

const ratings = z.object({
  average: z.number().min(1).max(5).nullable().describe("two decimals; null without ratings"),
  count: z.int().min(0),
  by_score: z.object({ 1: z.int().min(0), 2: z.int().min(0), 3: z.int().min(0), 4: z.int().min(0), 5: z.int().min(0) }),
});

const figures = {
  conversations: z.object({
    started: z.int().min(0).describe("conversations created in the range"),
    closed: z.int().min(0).describe("closes in the range (a conversation closed twice counts twice)"),
  }),
  first_response: durations.describe("seconds from a cycle's first visitor message to the first reply by a person, inside the site's hours"),
  resolution: durations.describe("seconds from a cycle's start to its close, inside the site's hours"),
  rating: ratings.describe("ratings given in the range"),
};

export const reportSeriesItem = named(
  "ReportSeriesItem",
  z.object({
    key: z.string().nullable().describe("day: YYYY-MM-DD (UTC); week: its Monday; member: the assigned member's id, null for unassigned"),
    label: z.string(),
    ...figures,
  }),
);

export const report = named(
  "Report",
  z.object({
    from: isoTime,
    to: isoTime.describe("excluded"),
    site: z.string().nullable(),
    member: z.string().nullable(),
    group: z.enum(REPORT_GROUPS),
    ...figures,
    series: z.array(reportSeriesItem).describe("day and week: every bucket of the range in order; member: members with figures, by name"),
  }),
);

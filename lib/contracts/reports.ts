import { z } from "zod";
import { clientId } from "../core/validation/strings";
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
    site: clientId(100).optional(),
    member: clientId(100).optional().describe("an extension: only this member's figures, credited by what they did (first responses they sent, closes they made; started: assigned to them)"),
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
    key: z.string().nullable().describe("day: YYYY-MM-DD (UTC); week: its Monday; member: the member credited (first response: who sent it; close, resolution, rating: who closed, else the first responder; started: the assignee), null for nobody"),
    label: z.string(),
    ...figures,
  }),
);

const slaCounts = {
  met: z.int().min(0).describe("targets met: stopped (a person's reply, a close) by their due time"),
  missed: z.int().min(0).describe("targets breached"),
  percent_met: z.number().min(0).max(100).nullable().describe("met / (met + missed) × 100, one decimal; null when none was decided"),
};
const slaGroup = z.object({ key: z.string().nullable(), label: z.string(), ...slaCounts });

export const slaReport = named(
  "SlaReport",
  z.object({
    ...slaCounts,
    by_policy: z.array(slaGroup).describe("by policy name"),
    by_team: z.array(slaGroup).describe("the conversation's team; key null: no team"),
    by_member: z.array(slaGroup).describe("the member who replied (a response) or closed (resolution), else the assignee; key null: nobody"),
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
    sla: slaReport.describe("SLA targets started in the range and decided, met or missed (docs/sla.md), as of the SLA sweep's last computation"),
  }),
);

// Answers in the reports (decisions.md, round 4, "Answers and the human handoff"; docs/answers.md):
// the questions no article answers and the answers' outcomes, over the same range as the report.

const rangeOf = ({ site, from, to }: { site?: string; from?: string; to?: string }) => {
  const end = to ? endOf(to) : todayEnd(new Date());
  const start = from ? startOf(from) : new Date(end.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
  return { site: site ?? null, from: start, to: end };
};

/** `?site=&from=&to=` as the report's (the range rules are the same). */
export const answersReportQuery = z
  .strictObject({ site: clientId(100).optional(), from: dayOrInstant.optional(), to: dayOrInstant.optional() })
  .transform(rangeOf)
  .check((context) => {
    const { from, to } = context.value;
    if (from.getTime() >= to.getTime()) context.issues.push({ code: "custom", input: context.value, path: ["to"], message: "must be after from" });
    else if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS)
      context.issues.push({ code: "custom", input: context.value, path: ["to"], message: `the range must be at most ${MAX_RANGE_DAYS} days` });
  });
export type AnswersReportQuery = z.output<typeof answersReportQuery>;

export const MAX_QUESTION_EXAMPLES = 3;

export const questionGroup = named(
  "QuestionGroup",
  z.object({
    question: z.string().describe("the group's most frequent wording (on a tie, the first in text order)"),
    count: z.int().min(1).describe("first visitor messages in the group"),
    examples: z.array(z.string()).max(MAX_QUESTION_EXAMPLES).describe("conversation ids, the latest first"),
    article: z.object({ id: z.string(), title: z.string() }).nullable().describe("the published article that answers the question now (the bot's threshold), null when none does"),
  }),
);

export const questionsReport = named(
  "QuestionsReport",
  z.object({ items: z.array(questionGroup).describe("groups no article answers first, then by count") }),
);

export const answerOutcomes = named(
  "AnswerOutcomes",
  z.object({
    from: isoTime,
    to: isoTime.describe("excluded"),
    site: z.string().nullable(),
    conversations: z.int().min(0).describe("conversations started in the range"),
    bot_answered: z.int().min(0).describe("of those, conversations the bot answered at least once"),
    bot_resolved: z.int().min(0).describe("answered by the bot and closed without a person's public reply"),
    handed_off: z.int().min(0).describe("conversations where the visitor asked for a person"),
    feedback: z.object({ helpful: z.int().min(0), not_helpful: z.int().min(0) }).describe("article votes given in the range"),
    model: z
      .object({ calls: z.int().min(0), prompt_tokens: z.int().min(0), completion_tokens: z.int().min(0) })
      .describe("calls to the configured model (AI_BASE_URL) in the range and their `usage` tokens"),
  }),
);
export type AnswerOutcomes = z.infer<typeof answerOutcomes>;

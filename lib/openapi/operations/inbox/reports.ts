import { answerOutcomes, answersReportQuery, questionsReport, report, reportQuery } from "../../../contracts/reports";
import { routes } from "../../operation";

// Reports (decisions.md, round 3, "Satisfaction and reports"; docs/reports.md): owners only.

const RANGE =
  "`from` and `to` are dates (YYYY-MM-DD, whole UTC days, `to` included) or ISO 8601 instants (`to` excluded); " +
  "the default is the last 30 days up to today, the longest range 366 days. A range out of shape, reversed or too long: 400 `invalid_request` naming the field. " +
  "Figures follow lib/reports/metrics.ts: cycles start at the first visitor message and at each reopen; first response and resolution count only the site's hours. " +
  "Read from the precomputed cycles, measured again before each report for every conversation changed since.";

export const inboxReports = routes({
  "v1/inbox/reports": {
    GET: {
      summary: "Conversations, first response, resolution and ratings over a range, with a series per day, week or member (owners)",
      description: RANGE,
      extension: true,
      query: reportQuery,
      answers: { 200: report },
      errors: ["site_not_found"],
    },
  },
  "v1/inbox/reports.csv": {
    GET: {
      summary: "One CSV row per conversation cycle started in the range (owners)",
      description: `${RANGE} Columns: conversation_id, site_id, assigned_member_id, cycle, started_at, first_response_s, first_response_skipped_s, bot_replies_ignored, resolution_s, resolution_skipped_s, closed_at, visitor_name, first_responder_id, first_responder_name, closed_by_id, closed_by_name, rating, labels (round 4: credit by who answered and who closed, whatever the assignment now). ` +
        "`member`: the cycles credited to that member. `Content-Disposition` names the range as chosen: `parley-report-<from>-<to>.csv`, `to` its last day.",
      extension: true,
      query: reportQuery,
      answers: {},
      rawAnswer: { status: 200, contentType: "text/csv", description: "RFC 4180, a header row, CRLF line ends." },
      errors: ["site_not_found"],
    },
  },
  "v1/inbox/reports/questions": {
    GET: {
      summary: "Questions no article answers (owners)",
      description:
        "The first visitor message of each conversation started in the range (`site`, `from`, `to` as the report's), grouped by its search words " +
        "(folded, stemmed, stop words out), the 100 largest groups; each with the published article that answers it now (the bot's threshold) or null. " +
        "Groups no article answers come first, then by count.",
      extension: true,
      query: answersReportQuery,
      answers: { 200: questionsReport },
      errors: ["site_not_found"],
    },
  },
  "v1/inbox/reports/answers": {
    GET: {
      summary: "Answer outcomes: the bot's answers, handoffs, article votes and model calls (owners)",
      description: "Over the conversations started in the range (`site`, `from`, `to` as the report's); votes given in the range; model calls by UTC day.",
      extension: true,
      query: answersReportQuery,
      answers: { 200: answerOutcomes },
      errors: ["site_not_found"],
    },
  },
});

import { auditCsvQuery, auditPage, auditQuery, MAX_AUDIT_CSV_ROWS } from "../../../contracts/audit";
import { routes, type RouteOperations } from "../../operation";
import { ownersOnly, type StaffApi } from "./owners";

// The audit log (decisions.md, round 3, "Trust"; docs/api.md, "Audit log"): read-only, newest
// first; no route edits or deletes it.

const FILTERS =
  "Filters: `actor` (`member:<id>`, `operator`, `anonymous`), `action` (`webhook.created`, or a kind: `webhook.*`), " +
  "`from` (inclusive) and `to` (exclusive), ISO date-times with an offset. A filter out of shape, or `from` not before `to`: 400 `invalid_request`.";

const list = (api: StaffApi): RouteOperations => ({
  [`v1/${api}/audit`]: {
    GET: {
      summary: `The audit log${ownersOnly(api)}`,
      description: `Every state change by a member or the operator token, sign-ins and their failures included. ${FILTERS} Pages by \`cursor\` (a \`next_cursor\`) and \`limit\` (1..200, default 50).`,
      extension: true,
      query: auditQuery,
      answers: { 200: auditPage },
    },
  },
});

export const auditOperations = routes({
  ...list("admin"),
  ...list("inbox"),
  "v1/inbox/audit.csv": {
    GET: {
      summary: "The audit log as CSV (owners)",
      description: `The same rows as a CSV file, newest first, at most ${MAX_AUDIT_CSV_ROWS}. ${FILTERS}`,
      extension: true,
      query: auditCsvQuery,
      answers: {},
      rawAnswer: { status: 200, contentType: "text/csv", description: "Columns at, actor, action, target, ip, details (JSON), id; RFC 4180." },
    },
  },
});

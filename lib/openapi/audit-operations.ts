import { auditCsvQuery, auditPage, auditQuery, MAX_AUDIT_CSV_ROWS } from "../contracts/audit";
import type { Operation } from "./operation";

// The audit log (decisions.md, round 3, "Trust"; docs/api.md, "Audit log"): read-only, newest
// first; no route edits or deletes it.

const FILTERS =
  "Filters: `actor` (`member:<id>`, `operator`, `anonymous`), `action` (`webhook.created`, or a kind: `webhook.*`), " +
  "`from` (inclusive) and `to` (exclusive), ISO date-times with an offset. A filter out of shape, or `from` not before `to`: 400 `invalid_request`.";

const list = (family: "inbox" | "admin"): Operation => ({
  method: "GET",
  path: `/api/v1/${family}/audit`,
  family,
  summary: family === "inbox" ? "The audit log (owners)" : "The audit log",
  description: `Every state change by a member or the operator token, sign-ins and their failures included. ${FILTERS} Pages by \`cursor\` (a \`next_cursor\`) and \`limit\` (1..200, default 50).`,
  extension: true,
  query: auditQuery,
  answers: { 200: auditPage },
});

export const auditOperations: Operation[] = [
  list("admin"),
  list("inbox"),
  {
    method: "GET",
    path: "/api/v1/inbox/audit.csv",
    family: "inbox",
    summary: "The audit log as CSV (owners)",
    description: `The same rows as a CSV file, newest first, at most ${MAX_AUDIT_CSV_ROWS}. ${FILTERS}`,
    extension: true,
    query: auditCsvQuery,
    answers: {},
    rawAnswer: { status: 200, contentType: "text/csv", description: "Columns at, actor, action, target, ip, details (JSON), id; RFC 4180." },
  },
];

import { bulkBody, snoozeBody } from "../contracts/inbox";
import * as workspace from "../contracts/workspace-wire";
import type { Operation } from "./operation";

// Triage in the inbox's API (decisions.md round 3: snooze, @mentions; issue 25 item 5: bulk
// actions; docs/api.md, "Triage (inbox)"). The list's `status=snoozed` and `sort=waiting` are on
// GET /inbox/conversations (inbox-operations.ts).

const INBOX = "/api/v1/inbox";
const ADMIN = "/api/v1/admin";
const SNOOZE_RULES =
  "`until`: an ISO 8601 date-time with its offset, in the future and at most 90 days ahead (else 400 `invalid_request` naming `until`, nothing changed). The conversation is `snoozed` until then, or until the visitor writes, whichever comes first; then `open` again, with a staff-only `unsnoozed` timeline event. A closed conversation: 409 `conversation_closed`.";

export const triageOperations: Operation[] = [
  {
    method: "POST",
    path: `${INBOX}/conversations/{id}/snooze`,
    family: "inbox",
    summary: "Snooze a conversation until a time",
    description: SNOOZE_RULES,
    extension: true,
    body: snoozeBody,
    answers: { 200: workspace.snoozeState },
    errors: ["conversation_not_found", "conversation_closed"],
  },
  {
    method: "POST",
    path: `${INBOX}/conversations/{id}/unsnooze`,
    family: "inbox",
    summary: "Open a snoozed conversation now",
    description: "An open or closed conversation stays as it is.",
    extension: true,
    answers: { 200: workspace.snoozeState },
    errors: ["conversation_not_found"],
  },
  {
    method: "POST",
    path: `${ADMIN}/conversations/{id}/snooze`,
    family: "admin",
    summary: "Snooze a conversation until a time",
    description: SNOOZE_RULES,
    extension: true,
    body: snoozeBody,
    answers: { 200: workspace.snoozeState },
    errors: ["conversation_not_found", "conversation_closed"],
  },
  {
    method: "POST",
    path: `${INBOX}/conversations/bulk`,
    family: "inbox",
    summary: "Close, assign or label up to 100 conversations, answered per id",
    description:
      "`action: \"close\"`, `\"assign\"` with `member_id` (null: nobody) or `\"label\"` with `label_id` (added to each). An unknown member (404 `member_not_found`) or label (404 `not_found`) refuses the whole request; an unknown conversation is reported in its own result. Each act records its timeline event.",
    extension: true,
    body: bulkBody,
    answers: { 200: workspace.bulkResults },
    errors: ["member_not_found", "not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/mentions`,
    family: "inbox",
    summary: "The signed-in member's latest @mentions in notes",
    extension: true,
    answers: { 200: workspace.mentionList },
  },
];

import { inboxTicketReplyBody } from "../contracts/inbox";
import { emailSuppressionPage, inboundCounts, removedSuppression, suppressionQuery } from "../contracts/suppressions";
import { notificationOperations } from "./notification-operations";
import type { Operation } from "./operation";

// The inbox's settings for notifications (owners, session cookie): webhooks, the email outbox, the
// suppression list and the inbound emails' counts; and replying to a ticket (any signed-in member, who is the author). The same services and answers
// as the operator routes, so the operations are theirs, moved under /api/v1/inbox.

const ADMIN = "/api/v1/admin";
const INBOX = "/api/v1/inbox";
const OWNERS_ONLY = [`${ADMIN}/webhooks`, `${ADMIN}/outbox`];
const TICKET_REPLIES = `${ADMIN}/tickets/{id}/replies`;

const moved = (operation: Operation): Operation => ({ ...operation, path: INBOX + operation.path.slice(ADMIN.length), family: "inbox" });

export const inboxNotificationOperations: Operation[] = [
  ...notificationOperations
    .filter((operation) => OWNERS_ONLY.some((prefix) => operation.path.startsWith(prefix)))
    .map((operation) => ({ ...moved(operation), summary: `${operation.summary} (owners)` })),
  ...notificationOperations
    .filter((operation) => operation.path === TICKET_REPLIES)
    .map((operation) => ({ ...moved(operation), body: inboxTicketReplyBody, errors: ["not_found" as const] })),
  {
    method: "GET",
    path: `${INBOX}/email-suppressions`,
    family: "inbox",
    summary: "The suppression list, newest first (owners)",
    description:
      "Addresses the automatic emails (ticket acknowledgements, visitor follow-ups) are kept from: `unsubscribe` (one site), `hard_bounce` and `complaint` (every site; from delivery reports to the bounce address). `reason` and `site` filter exactly, `q` is part of the address (without case); `cursor` is the previous page's `next_cursor`.",
    extension: true,
    query: suppressionQuery,
    answers: { 200: emailSuppressionPage },
  },
  {
    method: "DELETE",
    path: `${INBOX}/email-suppressions/{id}`,
    family: "inbox",
    summary: "Remove an address from the suppression list (owners; audited)",
    description: "The automatic emails reach the address again. A bounce or complaint that comes back adds it again.",
    extension: true,
    answers: { 200: removedSuppression },
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/inbound-counts`,
    family: "inbox",
    summary: "Inbound emails of the last 30 days by outcome and reason (owners)",
    description: "What became of the mail that reached the reply domain: replies accepted, refusals (invalid_token, sender_mismatch, dmarc_fail, …), automatic mail ignored, bounces and complaints taken (`accepted` with reason `hard_bounce` or `complaint`).",
    extension: true,
    answers: { 200: inboundCounts },
  },
];

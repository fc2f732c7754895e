import { inboxTicketReplyBody } from "../contracts/inbox";
import { notificationOperations } from "./notification-operations";
import type { Operation } from "./operation";

// The inbox's settings for notifications (owners, session cookie): webhooks and the email outbox;
// and replying to a ticket (any signed-in member, who is the author). The same services and answers
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
];

import { notificationOperations } from "./notification-operations";
import type { Operation } from "./operations";

// The inbox's settings for notifications (owners, session cookie): webhooks and the email outbox.
// The same services, bodies and answers as the operator routes, so the operations are theirs,
// moved under /api/v1/inbox.

const ADMIN = "/api/v1/admin";
const INBOX = "/api/v1/inbox";
const SHARED = [`${ADMIN}/webhooks`, `${ADMIN}/outbox`];

export const inboxNotificationOperations: Operation[] = notificationOperations
  .filter((operation) => SHARED.some((prefix) => operation.path.startsWith(prefix)))
  .map((operation) => ({ ...operation, path: INBOX + operation.path.slice(ADMIN.length), family: "inbox", summary: `${operation.summary} (owners)` }));

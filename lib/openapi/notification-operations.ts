import type { Operation } from "./operations";

// Webhooks, the outbox, ticket replies and the unsubscribe link (lib/webhooks, lib/email).
export const notificationOperations: Operation[] = [];

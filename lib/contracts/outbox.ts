import { z } from "zod";

// The outbox's filter (GET …/outbox?status=): an email's stored status, or `failed` — `pending`
// with an SMTP error recorded (the queue retries it; it may be resent). `pending` alone is what is
// being sent now, without an error.
export const OUTBOX_FILTERS = ["not_sent", "pending", "failed", "sent", "suppressed"] as const;
export type OutboxFilter = (typeof OUTBOX_FILTERS)[number];

export const outboxQuery = z.strictObject({ status: z.enum(OUTBOX_FILTERS).optional() });
export type OutboxQuery = z.output<typeof outboxQuery>;

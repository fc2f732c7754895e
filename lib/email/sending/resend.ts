import { db } from "../../db/client";
import { AppError, invalidRequest } from "../../core/errors";
import type { OutboxEvent } from "../../contracts/notification-events";
import type { JobSpec } from "../../jobs/queue";
import { QUEUES } from "../../jobs/queue";
import { smtpConfigured } from "./transport";

// "Resend" in the outbox (issue 28): once SMTP works, an owner sends again what was not sent —
// emails kept `not_sent` (no SMTP_URL then) and failed ones (`pending` with an SMTP error, whose
// retries may have run out). Never a `suppressed` one: the per-recipient caps protect an address
// anyone can type into a form, and a person's click does not lift them (docs/notifications.md).
// Never a `sent` one. Through the outbox like every job: the email turns `pending` and an
// `email.send` event is written in one transaction; its consumer below queues the send.

/** The SQL condition of an email that may be sent again. */
const RESENDABLE = `("status" = 'not_sent' OR ("status" = 'pending' AND "last_error" IS NOT NULL))`;

const RESEND = `
  WITH resent AS (
    UPDATE "emails" SET "status" = 'pending'
     WHERE ${RESENDABLE} AND ($1::text IS NULL OR "id" = $1::text)
    RETURNING "id"
  )
  INSERT INTO "notification_events" ("type", "subject_id") SELECT 'email.send', "id" FROM resent
  RETURNING "subject_id"`;

function assertSmtp(): void {
  if (!smtpConfigured()) throw invalidRequest("SMTP_URL is not set: nothing can be sent yet. Configure SMTP, restart, then resend.");
}

/** Sends one email again; 404 when unknown, 400 when sent, suppressed or still sending. */
export async function resendEmail(id: string): Promise<{ id: string; status: "pending" }> {
  assertSmtp();
  const prisma = await db();
  const rows = await prisma.$queryRawUnsafe<{ subject_id: string }[]>(RESEND, id);
  if (rows.length === 1) return { id, status: "pending" };
  const email = await prisma.email.findUnique({ where: { id }, select: { status: true } });
  if (!email) throw new AppError("not_found", "No email has this identifier.");
  if (email.status === "suppressed") throw invalidRequest("A suppressed email is never sent: its recipient had reached the cap on automatic emails.");
  if (email.status === "sent") throw invalidRequest("This email was sent already.");
  throw invalidRequest("This email is being sent now.");
}

/** Sends again every email not sent or failed (never a suppressed one); answers how many. */
export async function resendUnsent(): Promise<{ resent: number }> {
  assertSmtp();
  const rows = await (await db()).$queryRawUnsafe<{ subject_id: string }[]>(RESEND, null);
  return { resent: rows.length };
}

/**
 * The consumer of `email.send` (lib/notifications/rules.ts): the send job of an email stored
 * outside the dispatcher (a resend, an invite), now.
 */
export const queueEmailSend = (event: OutboxEvent): { jobs: JobSpec[] } => ({
  jobs: [{ name: QUEUES.email, data: { emailId: event.subjectId } }],
});

import { randomUUID } from "node:crypto";
import { db, type SqlQuery } from "../db";
import type { JobSpec } from "../jobs/queue";
import { QUEUES } from "../jobs/queue";
import type { EmailContent } from "./templates";
import { mailFrom, smtpConfigured, smtpTransport, subjectHeader } from "./transport";

// Every email is a row first: `pending` with a send job when SMTP is configured, `not_sent`
// (the outbox the operator reads) when it is not.

export type EmailKind = "staff_alert" | "visitor_follow_up" | "ticket_acknowledgement" | "ticket_reply";

export interface EmailDraft extends EmailContent {
  kind: EmailKind;
  recipient: string;
  headers?: Record<string, string>;
  conversationId?: string;
  ticketId?: string;
  memberId?: string;
}

/** Stores the emails in the caller's transaction; returns their send jobs to add in it too (if any). */
export async function storeEmails(sql: SqlQuery, drafts: EmailDraft[]): Promise<JobSpec[]> {
  if (drafts.length === 0) return [];
  const ids = drafts.map(() => `em_${randomUUID()}`);
  const status = smtpConfigured() ? "pending" : "not_sent";
  const column = <Value>(value: (draft: EmailDraft) => Value) => drafts.map(value);
  await sql.executeSql(
    `INSERT INTO "emails" ("id", "kind", "recipient", "subject", "text_body", "html_body", "headers", "status",
       "conversation_id", "ticket_id", "member_id")
     SELECT e.id, e.kind, e.recipient, e.subject, e.text_body, e.html_body, e.headers::jsonb, $8, e.conversation_id, e.ticket_id, e.member_id
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $9::text[], $10::text[], $11::text[])
         AS e(id, kind, recipient, subject, text_body, html_body, headers, conversation_id, ticket_id, member_id)`,
    [
      ids,
      column((draft) => draft.kind),
      column((draft) => draft.recipient),
      column((draft) => draft.subject),
      column((draft) => draft.text),
      column((draft) => draft.html),
      column((draft) => JSON.stringify(draft.headers ?? {})),
      status,
      column((draft) => draft.conversationId ?? null),
      column((draft) => draft.ticketId ?? null),
      column((draft) => draft.memberId ?? null),
    ],
  );
  return status === "pending" ? ids.map((emailId) => ({ name: QUEUES.email, data: { emailId } })) : [];
}

/**
 * The send jobs of one batch: the pending emails read at once, each sent over the pool, the sent
 * ones recorded at once. Throws when SMTP refused any, so the queue retries the batch later
 * (what was sent is no longer pending and is skipped then).
 */
export async function sendStoredEmails(emailIds: string[]): Promise<void> {
  const prisma = await db();
  const emails = await prisma.email.findMany({ where: { id: { in: emailIds }, status: "pending" } });
  if (emails.length === 0) return;
  const ids = emails.map((email) => email.id);
  const transport = smtpTransport();
  if (!transport) {
    await prisma.email.updateMany({ where: { id: { in: ids }, status: "pending" }, data: { status: "not_sent" } });
    return;
  }
  const results = await Promise.allSettled(
    emails.map((email) =>
      transport.sendMail({
        from: mailFrom(),
        to: email.recipient,
        subject: subjectHeader(email.subject),
        text: email.textBody,
        html: email.htmlBody,
        headers: email.headers as Record<string, string>,
      }),
    ),
  );
  const sent = ids.filter((_, index) => results[index]!.status === "fulfilled");
  if (sent.length > 0) {
    await prisma.email.updateMany({
      where: { id: { in: sent } },
      data: { status: "sent", sentAt: new Date(), attempts: { increment: 1 }, lastError: null },
    });
  }
  const failures = results.flatMap((result, index) => (result.status === "rejected" ? [{ id: ids[index]!, error: result.reason }] : []));
  for (const { id, error } of failures) {
    await prisma.email.update({ where: { id }, data: { attempts: { increment: 1 }, lastError: smtpError(error) } });
  }
  if (failures.length > 0) throw new Error(`SMTP delivery failed (${smtpCode(failures[0]!.error)})`);
}

const smtpCode = (error: unknown) => (error as { code?: string }).code ?? "error";

function smtpError(error: unknown): string {
  const responseCode = (error as { responseCode?: number }).responseCode;
  return `SMTP ${smtpCode(error)}${responseCode ? ` ${responseCode}` : ""}`;
}

const OUTBOX_PAGE = 200;

export async function listOutbox() {
  const rows = await (await db()).email.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: OUTBOX_PAGE });
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    text: row.textBody,
    status: row.status,
    sent: row.status === "sent",
    attempts: row.attempts,
    error: row.lastError,
    conversation_id: row.conversationId,
    ticket_id: row.ticketId,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
  }));
}

import { randomUUID } from "node:crypto";
import { db, type SqlQuery } from "../db";
import type { JobSpec } from "../jobs/queue";
import { QUEUES } from "../jobs/queue";
import type { EmailContent } from "./templates";
import { mailFrom, smtpConfigured, smtpTransport } from "./transport";

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

/** Stores the email in the caller's transaction; returns the send job to add in it too (if any). */
export async function storeEmail(sql: SqlQuery, draft: EmailDraft): Promise<JobSpec[]> {
  const id = `em_${randomUUID()}`;
  const status = smtpConfigured() ? "pending" : "not_sent";
  await sql.executeSql(
    `INSERT INTO "emails" ("id", "kind", "recipient", "subject", "text_body", "html_body", "headers", "status",
       "conversation_id", "ticket_id", "member_id")
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11)`,
    [
      id,
      draft.kind,
      draft.recipient,
      draft.subject,
      draft.text,
      draft.html,
      JSON.stringify(draft.headers ?? {}),
      status,
      draft.conversationId ?? null,
      draft.ticketId ?? null,
      draft.memberId ?? null,
    ],
  );
  return status === "pending" ? [{ name: QUEUES.email, data: { emailId: id } }] : [];
}

/** The send job. Throws when SMTP refuses, so the queue retries it later. */
export async function sendStoredEmail(emailId: string): Promise<void> {
  const prisma = await db();
  const email = await prisma.email.findUnique({ where: { id: emailId } });
  if (!email || email.status !== "pending") return;
  const transport = smtpTransport();
  if (!transport) {
    await prisma.email.updateMany({ where: { id: emailId, status: "pending" }, data: { status: "not_sent" } });
    return;
  }
  try {
    await transport.sendMail({
      from: mailFrom(),
      to: email.recipient,
      subject: email.subject,
      text: email.textBody,
      html: email.htmlBody,
      headers: email.headers as Record<string, string>,
    });
  } catch (error) {
    const code = (error as { code?: string; responseCode?: number }).code ?? "error";
    const responseCode = (error as { responseCode?: number }).responseCode;
    await prisma.email.update({
      where: { id: emailId },
      data: { attempts: { increment: 1 }, lastError: `SMTP ${code}${responseCode ? ` ${responseCode}` : ""}` },
    });
    throw new Error(`SMTP delivery failed (${code})`);
  }
  await prisma.email.update({
    where: { id: emailId },
    data: { status: "sent", sentAt: new Date(), attempts: { increment: 1 }, lastError: null },
  });
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

import { db, type SqlQuery } from "../../db/client";
import { env } from "../../core/env";
import type { OutboxFilter, OutboxQuery } from "../../contracts/outbox";
import type { Email, Prisma } from "../../generated/prisma/client";
import type { JobSpec } from "../../jobs/queue";
import { QUEUES } from "../../jobs/queue";
import type { SqlRow } from "../../core/sql-row";
import { CAPPED_KINDS, newEmailId, type EmailKind } from "../email-kinds";
import type { EmailContent } from "../templates";
import { mailFrom, smtpConfigured, smtpTransport, subjectHeader } from "./transport";
import { replyHeaders } from "./reply-headers";
import { bounceAddress } from "../links/bounce-address";
import { addressKey, type SuppressionReason } from "../suppression/suppressions";

// Every email is a row first: `pending` with a send job when SMTP is configured, `not_sent`
// (the outbox the operator reads) when it is not, `suppressed` (kept, never sent) when it is an
// automatic email over its recipient's cap or to an address on the suppression list.

/**
 * Kinds stored without their bodies when suppressed: a transcript is a whole conversation, asked for
 * as often as a visitor likes, so a refused one records the refusal, not another copy of the content.
 */
const BODILESS_WHEN_SUPPRESSED: readonly EmailKind[] = ["visitor_transcript"];
export const SUPPRESSED_BODY = "[Not kept: this email was suppressed, never sent.]";

/**
 * Kinds whose bodies go once sent: a transcript is a copy of the conversation, which is kept
 * anyway, so the outbox keeps its subject and size, not a copy per request. Until it is sent
 * (pending, failed, not sent without SMTP_URL) the body stays: it is what a retry or resend sends.
 */
const BODILESS_ONCE_SENT: readonly EmailKind[] = ["visitor_transcript"];

const MARK_SENT = `
  UPDATE "emails" SET "status" = 'sent', "sent_at" = now(), "attempts" = "attempts" + 1, "last_error" = NULL,
         "text_body" = CASE WHEN "kind" = ANY($2::text[])
                            THEN '[Not kept: this transcript was sent; its text and HTML held '
                                 || (octet_length("text_body") + octet_length("html_body")) || ' bytes. The conversation itself is kept.]'
                            ELSE "text_body" END,
         "html_body" = CASE WHEN "kind" = ANY($2::text[]) THEN '' ELSE "html_body" END
   WHERE "id" = ANY($1::text[])`;

export type SuppressedReason = "hourly_cap" | "daily_cap" | SuppressionReason;

export interface EmailDraft extends EmailContent {
  /** Chosen before storing when the email's own links name it (links/unsubscribe-links.ts `siteUnsubscribe`). */
  id?: string;
  kind: EmailKind;
  recipient: string;
  /** The site the email is about: caps count per site. */
  siteId: string;
  headers?: Record<string, string>;
  /** The recipient's keyed hash (links/unsubscribe-links.ts `siteUnsubscribe`): suppression entries known only by it hold too. */
  addressHash?: string;
  conversationId?: string;
  ticketId?: string;
  memberId?: string;
}


// Two transactions storing to the same (site, address) take turns from here to their commit, so
// the count below sees what the other one stored (a statement's snapshot is taken when it starts:
// the lock must be taken by an earlier statement). Keys are locked in order, so no two batches
// wait on each other; a hash collision only makes two addresses take turns.
const RECIPIENT_LOCKS = 0x656d6c; // the first of the two keys: these locks' own space ("eml")
const LOCK_RECIPIENTS = `
  SELECT pg_advisory_xact_lock(${RECIPIENT_LOCKS}, k.key)
    FROM (SELECT DISTINCT hashtext(r.site_id || ' ' || r.recipient_key) AS key
            FROM unnest($1::text[], $2::text[]) AS r(site_id, recipient_key) ORDER BY 1) k`;

// One statement for the batch. A capped draft to an address on the suppression list (that site's or
// every site's) is kept as `suppressed` with the list's reason. What a (site, address) got in the last hour and day (automatic, not
// suppressed) leaves it `allowed` more; the first that many of the batch's capped drafts to it pass,
// the others are kept as `suppressed` with the cap that stopped them; a suppressed draft of a
// BODILESS_WHEN_SUPPRESSED kind keeps its subject, not its bodies. Answers the rows stored.
const INSERT_EMAILS = `
  WITH drafts AS (
    SELECT e.*, e.kind = ANY($14::text[]) AS capped
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                  $11::text[], $12::text[], $19::text[]) WITH ORDINALITY
        AS e(id, kind, recipient, subject, text_body, html_body, headers, conversation_id, ticket_id, member_id, site_id, recipient_key,
             address_hash, ord)
  ), judged AS (
    SELECT d.*,
           CASE WHEN listed.reason IS NOT NULL THEN listed.reason
                WHEN NOT d.capped OR row_number() OVER recipient <= sent.allowed THEN NULL
                WHEN sent.day + sent.allowed >= $16::int THEN 'daily_cap'
                ELSE 'hourly_cap' END AS suppressed_reason
      FROM drafts d
      LEFT JOIN LATERAL (
        SELECT c.day, greatest(0, least($15::int - c.hour, $16::int - c.day)) AS allowed
          FROM (SELECT count(*) AS day, count(*) FILTER (WHERE m."created_at" > now() - interval '1 hour') AS hour
                  FROM "emails" m
                 WHERE d.capped AND m."site_id" = d.site_id AND m."recipient_key" = d.recipient_key
                   AND m."created_at" > now() - interval '24 hours' AND m."kind" = ANY($14::text[]) AND m."status" <> 'suppressed') c
      ) sent ON true
      LEFT JOIN LATERAL (
        SELECT s."reason" FROM "email_suppressions" s
         WHERE d.capped AND (s."address_key" = d.recipient_key OR s."address_hash" = d.address_hash)
           AND (s."site_id" IS NULL OR s."site_id" = d.site_id)
         ORDER BY s."created_at" LIMIT 1
      ) listed ON true
    WINDOW recipient AS (PARTITION BY d.capped, d.site_id, d.recipient_key ORDER BY d.ord)
  )
  INSERT INTO "emails" ("id", "kind", "recipient", "recipient_key", "subject", "text_body", "html_body", "headers", "status",
     "suppressed_reason", "site_id", "conversation_id", "ticket_id", "member_id")
  SELECT j.id, j.kind, j.recipient, j.recipient_key, j.subject,
         CASE WHEN j.suppressed_reason IS NOT NULL AND j.kind = ANY($17::text[]) THEN $18 ELSE j.text_body END,
         CASE WHEN j.suppressed_reason IS NOT NULL AND j.kind = ANY($17::text[]) THEN '' ELSE j.html_body END,
         j.headers::jsonb,
         CASE WHEN j.suppressed_reason IS NULL THEN $13::text ELSE 'suppressed' END, j.suppressed_reason,
         j.site_id, j.conversation_id, j.ticket_id, j.member_id
    FROM judged j
  RETURNING "id", "status"`;

/** Stores the emails in the caller's transaction; returns their send jobs to add in it too (if any). */
export async function storeEmails(sql: SqlQuery, drafts: EmailDraft[]): Promise<JobSpec[]> {
  if (drafts.length === 0) return [];
  const { EMAIL_RECIPIENT_HOURLY_CAP, EMAIL_RECIPIENT_DAILY_CAP } = env();
  const status = smtpConfigured() ? "pending" : "not_sent";
  const column = <Value>(value: (draft: EmailDraft) => Value) => drafts.map(value);
  const capped = drafts.filter((draft) => CAPPED_KINDS.includes(draft.kind));
  if (capped.length > 0) {
    await sql.executeSql(LOCK_RECIPIENTS, [capped.map((draft) => draft.siteId), capped.map((draft) => addressKey(draft.recipient))]);
  }
  const { rows } = await sql.executeSql(INSERT_EMAILS, [
    column((draft) => draft.id ?? newEmailId()),
    column((draft) => draft.kind),
    column((draft) => draft.recipient),
    column((draft) => draft.subject),
    column((draft) => draft.text),
    column((draft) => draft.html),
    column((draft) => JSON.stringify(draft.headers ?? {})),
    column((draft) => draft.conversationId ?? null),
    column((draft) => draft.ticketId ?? null),
    column((draft) => draft.memberId ?? null),
    column((draft) => draft.siteId),
    column((draft) => addressKey(draft.recipient)),
    status,
    CAPPED_KINDS,
    EMAIL_RECIPIENT_HOURLY_CAP,
    EMAIL_RECIPIENT_DAILY_CAP,
    BODILESS_WHEN_SUPPRESSED,
    SUPPRESSED_BODY,
    column((draft) => draft.addressHash ?? null),
  ]);
  return (rows as SqlRow<Email, "id" | "status">[])
    .filter((row) => row.status === "pending")
    .map((row) => ({ name: QUEUES.email, data: { emailId: row.id } }));
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
    emails.map(async (email) => {
      const threading = await replyHeaders(email);
      const returnPath = await bounceAddress(email.id);
      return transport.sendMail({
        from: mailFrom(),
        // VERP: the email's own bounce address as the SMTP MAIL FROM, so delivery reports name it.
        ...(returnPath ? { envelope: { from: returnPath, to: email.recipient } } : {}),
        to: email.recipient,
        subject: subjectHeader(email.subject),
        text: email.textBody,
        html: email.htmlBody,
        messageId: threading.messageId,
        replyTo: threading.replyTo,
        headers: { ...threading.headers, ...(email.headers as Record<string, string>) },
      });
    }),
  );
  const sent = ids.filter((_, index) => results[index]!.status === "fulfilled");
  if (sent.length > 0) await prisma.$executeRawUnsafe(MARK_SENT, sent, [...BODILESS_ONCE_SENT]);
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

const FILTERS: Record<OutboxFilter, Prisma.EmailWhereInput> = {
  not_sent: { status: "not_sent" },
  pending: { status: "pending", lastError: null },
  failed: { status: "pending", lastError: { not: null } },
  sent: { status: "sent" },
  suppressed: { status: "suppressed" },
};

/** The newest emails, all or those in one state (lib/contracts/outbox.ts). */
export async function listOutbox(query: OutboxQuery = {}) {
  const rows = await (await db()).email.findMany({
    where: query.status ? FILTERS[query.status] : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: OUTBOX_PAGE,
  });
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    text: row.textBody,
    status: row.status,
    sent: row.status === "sent",
    suppressed_reason: row.suppressedReason as SuppressedReason | null,
    attempts: row.attempts,
    error: row.lastError,
    conversation_id: row.conversationId,
    ticket_id: row.ticketId,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
  }));
}

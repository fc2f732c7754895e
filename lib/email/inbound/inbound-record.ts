import { createHash, randomUUID } from "node:crypto";
import { db, sqlExecutor } from "../../db/client";
import { INBOUND_COUNT_DAYS, type InboundCountsWire } from "../../contracts/suppressions";
import { isUniqueViolation } from "../../db/errors";
import { log } from "../../core/log";

// Each inbound email's row (inbound_emails): claimed by its Message-ID before anything is done,
// so the same Message-ID twice (a provider's retry, a resend) is one message; then its outcome.
// Refusals are logged with their reason (never the body, the token or an address) and counted.

export type Via = "smtp" | "http";
export type Outcome = "accepted" | "unverified" | "ignored" | "refused";

export interface Judged {
  outcome: Outcome;
  reason: string | null;
  conversationId?: string;
  ticketId?: string;
}

export const messageKey = (messageId: string | undefined) =>
  messageId ? createHash("sha256").update(messageId.trim().toLowerCase()).digest("hex") : null;

/** A new row for this email; null when its Message-ID was already received. */
export async function claimInbound(key: string | null, via: Via): Promise<string | null> {
  const id = randomUUID();
  try {
    await (await db()).inboundEmail.create({ data: { id, messageKey: key, via, outcome: "ignored", reason: "processing" } });
    return id;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Frees the claim of an email whose processing failed, so that the sender's retry is processed. */
export async function releaseInbound(id: string): Promise<void> {
  await (await db()).inboundEmail.deleteMany({ where: { id } });
}

export async function recordInbound(id: string, via: Via, judged: Judged): Promise<void> {
  await (await db()).inboundEmail.update({
    where: { id },
    data: { outcome: judged.outcome, reason: judged.reason, conversationId: judged.conversationId ?? null, ticketId: judged.ticketId ?? null },
  });
  const facts = { via, outcome: judged.outcome, reason: judged.reason, conversationId: judged.conversationId, ticketId: judged.ticketId };
  if (judged.outcome === "refused") log.warn("inbound_email_refused", facts);
  else log.info("inbound_email", facts);
}

// By (received_at, outcome, reason): the index of migration 20261130020000 answers it alone.
const COUNTS = `
  SELECT "outcome", "reason", count(*)::int AS "count"
    FROM "inbound_emails"
   WHERE "received_at" > $1 AND NOT ("outcome" = 'ignored' AND "reason" IS NOT DISTINCT FROM 'processing')
   GROUP BY "outcome", "reason"
   ORDER BY "outcome", count(*) DESC, "reason"`;

/** The inbound emails of the last INBOUND_COUNT_DAYS days by outcome and reason (those being processed left out). */
export async function inboundCounts(now = new Date()): Promise<InboundCountsWire> {
  const since = new Date(now.getTime() - INBOUND_COUNT_DAYS * 24 * 60 * 60 * 1000);
  const { rows } = await (await sqlExecutor()).executeSql(COUNTS, [since]);
  const counts = (rows as InboundCountsWire["counts"]).map((row) => ({ outcome: row.outcome, reason: row.reason, count: Number(row.count) }));
  return { since: since.toISOString(), total: counts.reduce((sum, row) => sum + row.count, 0), counts };
}

import { createHash } from "node:crypto";
import type { PrismaClient } from "../db/client";
import { AppError } from "../core/errors";
import type { TicketInput } from "../contracts/tickets";

// `Idempotency-Key` on ticket requests: within 24 h, the same key with the same request replays
// the first reply (and draws nothing); with a different request it is a 409. Requests are
// compared by a hash of their validated form (defaults applied, text trimmed).

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** What is kept of the 201 reply; upload URLs are signed afresh on every replay. */
export interface StoredReply {
  number: number;
  subject: string;
  uploads: { attachment_id: string; name: string }[];
}

export function requestHash(input: TicketInput): string {
  const canonical = [
    input.name ?? null,
    input.email,
    input.subject,
    input.body,
    input.priority,
    input.files.map((file) => [file.name, file.contentType, file.bytes]),
  ];
  return createHash("sha256").update(JSON.stringify(canonical)).digest("hex");
}

/** The live earlier use of this key (after clearing an expired one), or null. Throws 409 on a different request. */
export async function earlierReply(
  tx: Transaction,
  siteId: string,
  key: string,
  hash: string,
  now: Date,
): Promise<{ ticketId: string; reply: StoredReply } | null> {
  const row = await tx.ticketIdempotencyKey.findUnique({ where: { siteId_key: { siteId, key } } });
  if (!row) return null;
  if (now.getTime() - row.createdAt.getTime() >= KEY_LIFETIME_MS) {
    await tx.ticketIdempotencyKey.deleteMany({ where: { siteId, key, createdAt: row.createdAt } });
    return null;
  }
  if (row.requestHash !== hash) {
    throw new AppError("idempotency_conflict", "This Idempotency-Key was already used for a different request.");
  }
  return { ticketId: row.ticketId, reply: row.reply as unknown as StoredReply };
}

export async function rememberReply(
  tx: Transaction,
  record: { siteId: string; key: string; hash: string; ticketId: string; reply: StoredReply; now: Date },
): Promise<void> {
  await tx.ticketIdempotencyKey.create({
    data: {
      siteId: record.siteId,
      key: record.key,
      requestHash: record.hash,
      ticketId: record.ticketId,
      reply: record.reply as never,
      createdAt: record.now,
    },
  });
}

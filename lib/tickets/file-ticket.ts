import { randomUUID } from "node:crypto";
import { drawDailyAllowance } from "../allowance/daily-allowance";
import { db, type PrismaClient } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import type { Inbox } from "../generated/prisma/client";
import type { SiteRecord } from "../sites/find-site";
import type { SqlRow } from "../core/sql-row";
import { activeStorage, newStorageKey } from "../uploads/storage";
import { presignUpload } from "../uploads/presign-upload";
import { earlierReply, rememberReply, requestHash, type StoredReply } from "./idempotency";
import type { TicketInput } from "../contracts/tickets";

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export interface FileTicket {
  site: SiteRecord;
  origin: string;
  input: TicketInput;
  idempotencyKey?: string;
}

export interface TicketReply {
  number: number;
  subject: string;
  /** `upload_headers` (extension): headers the PUT must carry besides Content-Type; only when there are some. */
  uploads: { attachment_id: string; upload_url: string; name: string; upload_headers?: Record<string, string> }[];
}

/**
 * Files a ticket in the site's inbox: draws a unit of the daily allowance, takes the inbox's next
 * ticket number and records one attachment per described file, in one transaction; then signs one
 * upload URL per file. With an Idempotency-Key, a repeat of the same request replays the reply.
 */
export async function fileTicket(request: FileTicket): Promise<TicketReply> {
  try {
    return await attempt(request);
  } catch (error) {
    // Two requests with one new key raced; the loser's whole transaction rolled back, and a second
    // attempt now finds the winner's key (a replay, or a 409 for a different request).
    if (request.idempotencyKey && isUniqueViolation(error)) return attempt(request);
    throw error;
  }
}

async function attempt({ site, origin, input, idempotencyKey }: FileTicket): Promise<TicketReply> {
  const now = new Date();
  const hash = requestHash(input);
  const outcome = await (await db()).$transaction(async (tx) => {
    if (idempotencyKey) {
      const earlier = await earlierReply(tx, site.id, idempotencyKey, hash, now);
      if (earlier) return { ticketId: earlier.ticketId, reply: earlier.reply };
    }
    const created = await createTicket(tx, site, origin, input);
    if (idempotencyKey) await rememberReply(tx, { siteId: site.id, key: idempotencyKey, hash, ...created, now });
    return created;
  });
  return { ...outcome.reply, uploads: await signUploads(outcome.ticketId, outcome.reply) };
}

async function createTicket(tx: Transaction, site: SiteRecord, origin: string, input: TicketInput) {
  await drawDailyAllowance(tx, site.inboxId);
  const [counter] = await tx.$queryRaw<SqlRow<Inbox, "last_ticket_number">[]>`
    UPDATE inboxes SET last_ticket_number = last_ticket_number + 1 WHERE id = ${site.inboxId}
    RETURNING last_ticket_number`;
  const number = Number(counter!.last_ticket_number);
  const storage = activeStorage().kind;
  const ticketId = randomUUID();
  const attachments = input.files.map((file, position) => ({
    id: randomUUID(),
    position,
    name: file.name,
    contentType: file.contentType,
    bytes: file.bytes,
    storage,
    storageKey: newStorageKey(storage),
  }));
  await tx.ticket.create({
    data: {
      id: ticketId,
      siteId: site.id,
      inboxId: site.inboxId,
      number,
      origin,
      name: input.name ?? null,
      email: input.email,
      subject: input.subject,
      body: input.body,
      priority: input.priority,
      // It lands in the site's default team (docs/teams.md), read in this transaction.
      teamId: (await tx.site.findUnique({ where: { id: site.id }, select: { defaultTeamId: true } }))?.defaultTeamId ?? null,
      attachments: { create: attachments },
    },
  });
  const reply: StoredReply = {
    number,
    subject: input.subject,
    uploads: attachments.map((attachment) => ({ attachment_id: attachment.id, name: attachment.name })),
  };
  return { ticketId, reply };
}

async function signUploads(ticketId: string, reply: StoredReply): Promise<TicketReply["uploads"]> {
  if (reply.uploads.length === 0) return [];
  const attachments = await (await db()).ticketAttachment.findMany({ where: { ticketId }, orderBy: { position: "asc" } });
  return Promise.all(
    attachments.map(async (attachment) => {
      const { url, headers } = await presignUpload(attachment);
      return { attachment_id: attachment.id, upload_url: url, name: attachment.name, ...(headers ? { upload_headers: headers } : {}) };
    }),
  );
}

import type { z } from "zod";
import { db } from "../db/client";
import type { inboxTicketDetail } from "../contracts/inbox-wire";
import { AppError } from "../core/errors";
import { ticketAttachmentsInclude, toInboxWireTicket } from "./ticket-view";
import { storageOf } from "../uploads/storage";

// Tickets as staff read them in the inbox, and their files, which only signed-in staff (or the
// operator token) can download: never a public URL.

export type InboxWireTicketDetail = z.infer<typeof inboxTicketDetail>;

const ticketInclude = { ...ticketAttachmentsInclude, site: { select: { name: true } } } as const;

export async function listInboxTickets(siteId?: string) {
  const tickets = await (await db()).ticket.findMany({
    where: siteId ? { siteId } : {},
    orderBy: [{ createdAt: "desc" }, { number: "desc" }],
    take: 200,
    include: ticketInclude,
  });
  return tickets.map(toInboxWireTicket);
}

const repliesInclude = {
  replies: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }], include: { member: { select: { name: true } } } },
};

/** One ticket with its staff replies, oldest first (each is also emailed to the filer). */
export async function readInboxTicket(id: string): Promise<InboxWireTicketDetail> {
  const ticket = await (await db()).ticket.findUnique({ where: { id }, include: { ...ticketInclude, ...repliesInclude } });
  if (!ticket) throw new AppError("not_found", "No ticket has this identifier.");
  return {
    ...toInboxWireTicket(ticket),
    replies: ticket.replies.map((reply) => ({
      id: reply.id,
      author_id: reply.memberId,
      author_name: reply.member.name,
      body: reply.body,
      created_at: reply.createdAt.toISOString(),
    })),
  };
}

const attachmentNotFound = () => new AppError("not_found", "No uploaded file has this identifier.");

/** A file's bytes as a download: its stored media type, `Content-Disposition: attachment`. */
export async function downloadAttachment(id: string): Promise<Response> {
  const attachment = await (await db()).ticketAttachment.findUnique({ where: { id } });
  if (!attachment) throw attachmentNotFound();
  const storage = storageOf(attachment.storage);
  if (!storage) throw attachmentNotFound();
  // S3 uploads are confirmed lazily (when listed); a file that is there is served either way.
  if (attachment.uploadedAt === null && attachment.storage === "local") throw attachmentNotFound();
  if (attachment.uploadedAt === null) {
    const confirmed = await storage.confirmUpload({ attachmentId: id, storageKey: attachment.storageKey, bytes: attachment.bytes, contentType: attachment.contentType });
    if (!confirmed) throw attachmentNotFound();
  }
  const body = await storage.read(attachment.storageKey);
  if (!body) throw attachmentNotFound();
  const fallbackName = attachment.name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": attachment.contentType,
      "Content-Length": String(attachment.bytes),
      "Content-Disposition": `attachment; filename="${fallbackName}"; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}

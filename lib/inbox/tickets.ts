import { db } from "../db";
import { AppError } from "../http/errors";
import { storageOf } from "../uploads/storage";

// Tickets as staff read them in the inbox, and their files, which only signed-in staff (or the
// operator token) can download: never a public URL.

const ticketInclude = { attachments: { orderBy: { position: "asc" } }, site: { select: { name: true } } } as const;

type TicketRow = NonNullable<Awaited<ReturnType<Awaited<ReturnType<typeof db>>["ticket"]["findFirst"]>>> & {
  attachments: { id: string; name: string; contentType: string; bytes: number; uploadedAt: Date | null }[];
  site: { name: string };
};

function toWireTicket(ticket: TicketRow) {
  return {
    id: ticket.id,
    number: ticket.number,
    site_id: ticket.siteId,
    site_name: ticket.site.name,
    origin: ticket.origin,
    name: ticket.name,
    email: ticket.email,
    subject: ticket.subject,
    body: ticket.body,
    priority: ticket.priority,
    created_at: ticket.createdAt.toISOString(),
    attachments: ticket.attachments.map((attachment) => ({
      id: attachment.id,
      name: attachment.name,
      content_type: attachment.contentType,
      bytes: attachment.bytes,
      uploaded: attachment.uploadedAt !== null,
      download_url: `/api/v1/inbox/attachments/${encodeURIComponent(attachment.id)}`,
    })),
  };
}

export async function listInboxTickets(siteId?: string) {
  const tickets = await (await db()).ticket.findMany({
    where: siteId ? { siteId } : {},
    orderBy: [{ createdAt: "desc" }, { number: "desc" }],
    take: 200,
    include: ticketInclude,
  });
  return tickets.map(toWireTicket);
}

export async function readInboxTicket(id: string) {
  const ticket = await (await db()).ticket.findUnique({ where: { id }, include: ticketInclude });
  if (!ticket) throw new AppError("not_found", "No ticket has this identifier.");
  return toWireTicket(ticket);
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

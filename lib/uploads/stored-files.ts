import { db } from "../db/client";
import { AppError } from "../core/errors";
import { serveFile } from "./serve-file";

// Every uploaded file is a ticket's (ticket_attachments) or a conversation's (message_attachments);
// the upload route and the staff downloads find a file by its id in either. Ids are random UUIDs.

export type UploadRecord = "ticket" | "message";

const fileColumns = { id: true, name: true, bytes: true, contentType: true, storage: true, storageKey: true, uploadedAt: true } as const;
const siteOrigins = { select: { site: { select: { origins: true } } } } as const;

/** The file with this id, which table holds it, and its site's allowed origins; null when there is none. */
export async function findStoredFile(id: string) {
  const prisma = await db();
  const ticketFile = await prisma.ticketAttachment.findUnique({ where: { id }, select: { ...fileColumns, ticket: siteOrigins } });
  if (ticketFile) {
    const { ticket, ...file } = ticketFile;
    return { ...file, record: "ticket" as UploadRecord, siteOrigins: ticket.site.origins };
  }
  const chatFile = await prisma.messageAttachment.findUnique({ where: { id }, select: { ...fileColumns, conversation: siteOrigins } });
  if (!chatFile) return null;
  const { conversation, ...file } = chatFile;
  return { ...file, record: "message" as UploadRecord, siteOrigins: conversation.site.origins };
}

/** A ticket's or a conversation's file as staff download it (inbox session or operator token): always `attachment`. */
export async function downloadStaffFile(id: string): Promise<Response> {
  const file = await findStoredFile(id);
  if (!file) throw new AppError("not_found", "No uploaded file has this identifier.");
  return serveFile(file);
}

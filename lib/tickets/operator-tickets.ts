import { db } from "../db/client";
import type { TicketAttachment } from "../generated/prisma/client";
import { AppError } from "../core/errors";
import { storageOf } from "../uploads/storage";
import { ticketWireInclude, toWireTicket } from "./ticket-view";

// The operator's view of a site's tickets. Whether a file was uploaded is recorded when the
// service's own upload route receives it; for S3 the bucket is asked (HEAD, and a look at the
// first bytes of images and PDFs) the first time the operator lists a pending file.

const PAGE = 500;
const CHECKS_AT_ONCE = 8;

type PendingAttachment = Pick<TicketAttachment, "id" | "contentType" | "bytes" | "storage" | "storageKey" | "uploadedAt">;

export async function listTickets(siteId: string) {
  const prisma = await db();
  const site = await prisma.site.findUnique({ where: { id: siteId }, select: { id: true } });
  if (!site) throw new AppError("site_not_found", "No site has this identifier.");
  const tickets = await prisma.ticket.findMany({
    where: { siteId },
    orderBy: [{ createdAt: "desc" }, { number: "desc" }],
    take: PAGE,
    include: ticketWireInclude,
  });
  await confirmPendingUploads(tickets.flatMap((ticket) => ticket.attachments));
  return tickets.map(toWireTicket);
}

/** Asks the storage about files not yet known to be uploaded; records (and mutates) those that are. */
async function confirmPendingUploads(attachments: PendingAttachment[]): Promise<void> {
  const pending = attachments.filter((attachment) => attachment.uploadedAt === null && attachment.storage !== "local");
  for (let start = 0; start < pending.length; start += CHECKS_AT_ONCE) {
    await Promise.all(pending.slice(start, start + CHECKS_AT_ONCE).map(confirmOne));
  }
}

async function confirmOne(attachment: PendingAttachment): Promise<void> {
  const storage = storageOf(attachment.storage);
  if (!storage) return;
  const target = { attachmentId: attachment.id, storageKey: attachment.storageKey, bytes: attachment.bytes, contentType: attachment.contentType };
  if (!(await storage.confirmUpload(target))) return;
  const uploadedAt = new Date();
  await (await db()).ticketAttachment.updateMany({ where: { id: attachment.id, uploadedAt: null }, data: { uploadedAt } });
  attachment.uploadedAt = uploadedAt;
}

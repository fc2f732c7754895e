import { randomUUID } from "node:crypto";
import { db, type PrismaClient } from "../db/client";
import { AppError } from "../core/errors";
import type { FileDescription } from "../contracts/tickets";
import { activeStorage, newStorageKey, storageOf } from "../uploads/storage";
import { presignUpload } from "../uploads/presign-upload";
import { serveFile } from "../uploads/serve-file";
import type { AttachmentRow } from "./message-view";

// Files in chat (decisions.md, round 3): a file is uploaded into a conversation by one side, then
// sent with one message of that side. The upload itself is a ticket upload's: the same signed
// one-use URL (or S3 presigned PUT) and the same signature check of the bytes.

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
export type Uploader = "visitor" | "staff";

const conversationNotFound = () => new AppError("conversation_not_found", "No conversation has this identifier.");
const fileNotFound = () => new AppError("not_found", "No uploaded file of this conversation has this identifier.");
const incomplete = () => new AppError("upload_incomplete", "A file has not been uploaded yet, or was already sent.");

/** Records a file to be uploaded into the conversation and answers its one-use upload URL. */
export async function createChatUpload(conversationId: string, uploader: Uploader, file: FileDescription) {
  const prisma = await db();
  if (uploader === "staff" && !(await prisma.conversation.findUnique({ where: { id: conversationId }, select: { id: true } }))) {
    throw conversationNotFound();
  }
  const storage = activeStorage().kind;
  const attachment = await prisma.messageAttachment.create({
    data: {
      id: randomUUID(),
      conversationId,
      uploaderType: uploader,
      name: file.name,
      contentType: file.contentType,
      bytes: file.bytes,
      storage,
      storageKey: newStorageKey(storage),
    },
  });
  const { url, headers } = await presignUpload(attachment);
  return { attachment_id: attachment.id, upload_url: url, ...(headers ? { upload_headers: headers } : {}) };
}

/**
 * A file the service received whole (an emailed attachment, already checked against the type list,
 * the size limit and its signature): stored, and recorded as uploaded into the conversation by that
 * side, ready to be sent with one message. Answers its attachment id.
 */
export async function storeReceivedFile(conversationId: string, uploader: Uploader, file: { name: string; contentType: string; content: Uint8Array }) {
  const storage = activeStorage();
  const storageKey = newStorageKey(storage.kind);
  await storage.write(storageKey, file.content, file.contentType);
  const attachment = await (await db()).messageAttachment.create({
    data: {
      id: randomUUID(),
      conversationId,
      uploaderType: uploader,
      name: file.name,
      contentType: file.contentType,
      bytes: file.content.byteLength,
      storage: storage.kind,
      storageKey,
      uploadedAt: new Date(),
    },
  });
  return attachment.id;
}

/**
 * Before a send with files: each is this side's file of this conversation (else 404) and its
 * bytes have arrived (else 409 upload_incomplete). S3 uploads are confirmed here, where the
 * signature of their first bytes is checked; one that fails is deleted and stays incomplete.
 */
export async function assertUploaded(conversationId: string, uploader: Uploader, ids: string[]): Promise<void> {
  const prisma = await db();
  const files = await prisma.messageAttachment.findMany({ where: { id: { in: ids }, conversationId, uploaderType: uploader } });
  if (files.length !== ids.length) throw fileNotFound();
  for (const file of files.filter((candidate) => candidate.uploadedAt === null)) {
    const storage = storageOf(file.storage);
    const target = { attachmentId: file.id, storageKey: file.storageKey, bytes: file.bytes, contentType: file.contentType };
    if (file.storage === "local" || !storage || !(await storage.confirmUpload(target))) throw incomplete();
    await prisma.messageAttachment.updateMany({ where: { id: file.id, uploadedAt: null }, data: { uploadedAt: new Date() } });
  }
}

/**
 * Gives the files to message `messageId`, in the order asked, inside the send's transaction. A
 * file sent meanwhile (by a concurrent send) fails the whole send with 409 upload_incomplete.
 */
export async function claimAttachments(tx: Transaction, messageId: string, conversationId: string, uploader: Uploader, ids: string[]): Promise<AttachmentRow[]> {
  const claimed = await tx.$queryRaw<(AttachmentRow & { position: number })[]>`
    UPDATE message_attachments SET message_id = ${messageId}, position = array_position(${ids}::text[], id) - 1
    WHERE id = ANY(${ids}::text[]) AND conversation_id = ${conversationId} AND uploader_type = ${uploader}
      AND message_id IS NULL AND uploaded_at IS NOT NULL
    RETURNING id, name, content_type AS "contentType", bytes, position`;
  if (claimed.length !== ids.length) throw incomplete();
  return claimed.sort((a, b) => a.position - b.position).map(({ position, ...attachment }) => attachment);
}

/**
 * A file as the visitor downloads it with its token: one of its conversation's files that the
 * visitor may see (sent in a public message, or its own upload), else 404. Raster images are
 * served inline (the widget shows them from a blob URL); every other type as a download.
 */
export async function downloadVisitorFile(conversationId: string, id: string): Promise<Response> {
  const file = await (await db()).messageAttachment.findFirst({
    where: { id, conversationId, OR: [{ uploaderType: "visitor" }, { message: { kind: "message" } }] },
  });
  if (!file) throw new AppError("not_found", "No file of this conversation has this identifier.");
  return serveFile(file, { inline: true });
}

import type { Attachment } from "mailparser";
import { cleanFileName } from "../../core/validation/file-names";
import { FILE_CONTENT_TYPES, MAX_FILE_BYTES, MAX_FILES } from "../../contracts/tickets";
import { bytesMatchType } from "../../core/file-sniffing";
import { storeReceivedFile, type Uploader } from "../../conversations/message-attachments";

// An emailed reply's files become the message's attachments under the files-in-chat contract:
// the tickets' type list and size limit, at most MAX_FILES, the bytes checked against the type's
// signature. A file that fails is skipped, and the message says so.

export interface SkippedFile {
  name: string;
  reason: "type_not_allowed" | "too_large" | "too_many" | "signature_mismatch" | "ticket_thread" | "unverified";
}

const ALLOWED: ReadonlySet<string> = new Set(FILE_CONTENT_TYPES);

/** The files a person attached (not the pictures a mail client embeds in its HTML). */
const attachedFiles = (attachments: Attachment[]) =>
  attachments.filter((file) => !(file.related && file.contentDisposition === "inline"));

/** The attachment's name under the one file-name rule, cleaned rather than refused (the email is already in). */
function fileName(file: Attachment, index: number): string {
  return cleanFileName(file.filename ?? "") || `attachment-${index + 1}`;
}

function refusal(file: Attachment, contentType: string, accepted: number): SkippedFile["reason"] | null {
  if (!ALLOWED.has(contentType)) return "type_not_allowed";
  if (file.content.byteLength > MAX_FILE_BYTES) return "too_large";
  if (accepted >= MAX_FILES) return "too_many";
  if (!bytesMatchType(contentType, file.content)) return "signature_mismatch";
  return null;
}

/** Stores the acceptable files into the conversation for `uploader`'s next message; answers their ids and what was skipped. */
export async function storeEmailedFiles(conversationId: string, uploader: Uploader, attachments: Attachment[]) {
  const ids: string[] = [];
  const skipped: SkippedFile[] = [];
  for (const [index, file] of attachedFiles(attachments).entries()) {
    const name = fileName(file, index);
    const contentType = file.contentType.toLowerCase();
    const reason = refusal(file, contentType, ids.length);
    if (reason) skipped.push({ name, reason });
    else ids.push(await storeReceivedFile(conversationId, uploader, { name, contentType, content: file.content }));
  }
  return { ids, skipped };
}

const REASON_TEXT: Record<SkippedFile["reason"], string> = {
  type_not_allowed: "this type of file is not accepted",
  too_large: "larger than 10 MB",
  too_many: "more than 10 files",
  signature_mismatch: "its content does not match its type",
  ticket_thread: "a ticket's thread takes no files by email",
  unverified: "files of an unverified email are not kept",
};

/** The line a message carries for each file left out. */
export const skippedLine = (file: SkippedFile) => `[Not attached: ${file.name} (${REASON_TEXT[file.reason]})]`;

/** Where no file is kept (a ticket's thread, an unverified email): every file is left out, and said so. */
export const unattached = (attachments: Attachment[], reason: "ticket_thread" | "unverified"): SkippedFile[] =>
  attachedFiles(attachments).map((file, index) => ({ name: fileName(file, index), reason }));

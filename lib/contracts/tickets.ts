import { z } from "zod";
import { invalidRequest } from "../core/errors";
import { fileName } from "../core/validation/file-names";
import { clientId, displayName, email, requiredText, singleLineText } from "../core/validation/strings";

export const MAX_FILES = 10;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 100;

export const FILE_CONTENT_TYPES = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
  "text/plain",
  "text/csv",
  "application/zip",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
] as const;

export const PRIORITIES = ["low", "normal", "high", "urgent"] as const;

/** One file as described before its upload: a ticket's files, a file sent in a chat (POST …/uploads). */
export const fileDescriptor = z
  .strictObject({
    name: fileName(),
    content_type: z.enum(FILE_CONTENT_TYPES),
    bytes: z.number().int().min(0).max(MAX_FILE_BYTES),
  })
  .transform(({ content_type, ...rest }) => ({ ...rest, contentType: content_type }));

/** POST /widget/{siteID}/tickets. */
export const ticketBody = z.strictObject({
  name: displayName(80).optional(),
  email: email(),
  subject: singleLineText(120),
  body: requiredText(8000),
  priority: z.enum(PRIORITIES).default("normal"),
  files: z.array(fileDescriptor).max(MAX_FILES).default([]),
});

export type TicketInput = z.output<typeof ticketBody>;
export type FileDescription = z.output<typeof fileDescriptor>;

export const MAX_TICKET_REPLY_LENGTH = 10_000;

/** POST /admin/tickets/{id}/replies. */
export const ticketReplyBody = z
  .strictObject({ author_id: clientId(), body: requiredText(MAX_TICKET_REPLY_LENGTH) })
  .transform(({ author_id, body }) => ({ authorId: author_id, body }));

// Printable ASCII: what a header value can carry unambiguously.
const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7E]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`);

/** The optional `Idempotency-Key` header: 1..100 printable ASCII characters. */
export function idempotencyKeyOf(headers: Headers): string | undefined {
  const key = headers.get("idempotency-key");
  if (key === null) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    const problem = `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`;
    throw invalidRequest(`Idempotency-Key ${problem}.`, [{ path: "Idempotency-Key", problem }]);
  }
  return key;
}

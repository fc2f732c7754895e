import { db } from "../db/client";
import { AppError } from "../core/errors";
import { uploadSigningSecret } from "./signing-secret";
import { isValidUploadSignature } from "./upload-signature";

// The credential of PUT /api/v1/uploads/{attachmentId} is its signed query. The signature covers
// the attachment's id, size and type (read from its row) and the expiry; an unknown id, an altered
// URL and a URL for another storage are all the same 403, so a forged URL learns nothing.

export interface UploadGrant {
  attachmentId: string;
  storageKey: string;
  bytes: number;
  contentType: string;
  uploaded: boolean;
  /** Unix seconds after which the URL is refused. */
  expires: number;
  /** The allowlist of the ticket's site: the origins whose pages may PUT (CORS). */
  siteOrigins: string[];
}

const invalid = () => new AppError("upload_url_invalid", "This upload URL is not valid.");

export async function authorizeUpload(attachmentId: string, query: URLSearchParams): Promise<UploadGrant> {
  const expires = query.get("expires") ?? "";
  const signature = query.get("signature") ?? "";
  if (!/^\d{1,12}$/.test(expires) || !signature) throw invalid();
  const attachment = await findAttachment(attachmentId);
  // An unknown id is refused exactly like a bad signature: the signature covers the id.
  if (!attachment) throw invalid();
  const signed = { attachmentId, bytes: attachment.bytes, contentType: attachment.contentType, expires: Number(expires) };
  if (attachment.storage !== "local" || !isValidUploadSignature(signed, signature, await uploadSigningSecret())) throw invalid();
  return {
    attachmentId,
    storageKey: attachment.storageKey,
    bytes: attachment.bytes,
    contentType: attachment.contentType,
    uploaded: attachment.uploadedAt !== null,
    expires: signed.expires,
    siteOrigins: attachment.ticket.site.origins,
  };
}

/** Checked once the answer may carry CORS, so the widget can read it and ask for a fresh URL. */
export function assertUploadUnexpired(grant: UploadGrant, now = Date.now()): void {
  if (grant.expires * 1000 <= now) throw new AppError("upload_url_expired", "This upload URL has expired.");
}

/** The origins allowed to upload this attachment, or null when there is no such attachment (preflight). */
export async function uploadOrigins(attachmentId: string): Promise<string[] | null> {
  return (await findAttachment(attachmentId))?.ticket.site.origins ?? null;
}

async function findAttachment(id: string) {
  return (await db()).ticketAttachment.findUnique({
    where: { id },
    select: {
      bytes: true,
      contentType: true,
      storage: true,
      storageKey: true,
      uploadedAt: true,
      ticket: { select: { site: { select: { origins: true } } } },
    },
  });
}

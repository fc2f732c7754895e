import { AppError } from "../core/errors";
import { serviceSigningSecret } from "../secrets/signing-secret";
import { isValidUploadSignature } from "./upload-signature";
import { findStoredFile, type UploadRecord } from "./stored-files";

// The credential of PUT /api/v1/uploads/{attachmentId} is its signed query. The signature covers
// the attachment's id, size and type (read from its row) and the expiry; an unknown id, an altered
// URL and a URL for another storage are all the same 403, so a forged URL learns nothing.

export interface UploadGrant {
  attachmentId: string;
  record: UploadRecord;
  storageKey: string;
  bytes: number;
  contentType: string;
  uploaded: boolean;
  /** Unix seconds after which the URL is refused. */
  expires: number;
  /** The allowlist of the ticket's (or conversation's) site: the origins whose pages may PUT (CORS). */
  siteOrigins: string[];
}

const invalid = () => new AppError("upload_url_invalid", "This upload URL is not valid.");

export async function authorizeUpload(attachmentId: string, query: URLSearchParams): Promise<UploadGrant> {
  const expires = query.get("expires") ?? "";
  const signature = query.get("signature") ?? "";
  if (!/^\d{1,12}$/.test(expires) || !signature) throw invalid();
  const attachment = await findStoredFile(attachmentId);
  // An unknown id is refused exactly like a bad signature: the signature covers the id.
  if (!attachment) throw invalid();
  const signed = { attachmentId, bytes: attachment.bytes, contentType: attachment.contentType, expires: Number(expires) };
  if (attachment.storage !== "local" || !isValidUploadSignature(signed, signature, await serviceSigningSecret())) throw invalid();
  return {
    attachmentId,
    record: attachment.record,
    storageKey: attachment.storageKey,
    bytes: attachment.bytes,
    contentType: attachment.contentType,
    uploaded: attachment.uploadedAt !== null,
    expires: signed.expires,
    siteOrigins: attachment.siteOrigins,
  };
}

/** Checked once the answer may carry CORS, so the widget can read it and ask for a fresh URL. */
export function assertUploadUnexpired(grant: UploadGrant, now = Date.now()): void {
  if (grant.expires * 1000 <= now) throw new AppError("upload_url_expired", "This upload URL has expired.");
}

/** The origins allowed to upload this attachment, or null when there is no such attachment (preflight). */
export async function uploadOrigins(attachmentId: string): Promise<string[] | null> {
  return (await findStoredFile(attachmentId))?.siteOrigins ?? null;
}

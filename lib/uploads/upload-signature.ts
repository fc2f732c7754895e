import { createHmac, timingSafeEqual } from "node:crypto";

// The service's own upload URLs carry an HMAC over everything the PUT is held to: which
// attachment, how many bytes, which media type, and until when. Changing any of them (or the
// expiry) breaks the signature.

export const UPLOAD_URL_LIFETIME_SECONDS = 15 * 60;

export interface SignedUpload {
  attachmentId: string;
  bytes: number;
  contentType: string;
  /** Unix seconds. */
  expires: number;
}

function payload({ attachmentId, bytes, contentType, expires }: SignedUpload): string {
  return ["parley-upload-v1", attachmentId, String(bytes), contentType, String(expires)].join("\n");
}

export function signUpload(upload: SignedUpload, secret: string): string {
  return createHmac("sha256", secret).update(payload(upload)).digest("base64url");
}

export function isValidUploadSignature(upload: SignedUpload, signature: string, secret: string): boolean {
  const expected = Buffer.from(signUpload(upload, secret));
  const presented = Buffer.from(signature);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

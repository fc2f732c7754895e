import { isSignature, textSignature, type SigningFormat } from "../core/signing";

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

const UPLOAD_URL: SigningFormat = { purpose: "parley-upload-v1", separator: "\n" };

const message = ({ attachmentId, bytes, contentType, expires }: SignedUpload) => [attachmentId, String(bytes), contentType, String(expires)].join("\n");

export const signUpload = (upload: SignedUpload, secret: string): string => textSignature(secret, UPLOAD_URL, message(upload));

export const isValidUploadSignature = (upload: SignedUpload, signature: string, secret: string): boolean =>
  isSignature(secret, UPLOAD_URL, message(upload), signature);

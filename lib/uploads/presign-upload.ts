import { activeStorage, storageOf } from "./storage";
import { UPLOAD_URL_LIFETIME_SECONDS } from "./upload-signature";
import type { PresignedPut } from "./upload-storage";

// The one-use upload URL of a file already recorded (a ticket's or a conversation's), for the
// storage its row was promised to.

export interface StoredFile {
  id: string;
  storage: string;
  storageKey: string;
  bytes: number;
  contentType: string;
}

/** The URL (and the headers the PUT must carry) accepting this file's bytes for the next 15 minutes. */
export async function presignUpload(file: StoredFile): Promise<PresignedPut> {
  const expires = Math.floor(Date.now() / 1000) + UPLOAD_URL_LIFETIME_SECONDS;
  const target = { attachmentId: file.id, storageKey: file.storageKey, bytes: file.bytes, contentType: file.contentType };
  return (storageOf(file.storage) ?? activeStorage()).presignPut(target, expires);
}

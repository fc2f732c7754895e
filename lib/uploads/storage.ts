import { randomBytes } from "node:crypto";
import { env } from "../core/env";
import { localStorage } from "./local-storage";
import { s3Storage } from "./s3-storage";
import type { StorageKind, UploadStorage } from "./upload-storage";

export type { StorageKind, UploadStorage, UploadTarget } from "./upload-storage";

// Where ticket files go. Each attachment records which storage it was promised to, so changing
// the configuration later does not lose track of files already uploaded.

/** The storage new attachments go to: S3-compatible when S3_BUCKET is set, else the local upload route. */
export const activeStorage = (): UploadStorage => (env().S3_BUCKET ? s3Storage() : localStorage);

export function storageOf(kind: string): UploadStorage | null {
  if (kind === "local") return localStorage;
  if (kind === "s3" && env().S3_BUCKET) return s3Storage();
  return null;
}

/** Server-generated; never derived from the file name. */
export const newStorageKey = (kind: StorageKind) => {
  const id = randomBytes(16).toString("hex");
  return kind === "s3" ? `attachments/${id}` : `${id.slice(0, 2)}/${id}`;
};

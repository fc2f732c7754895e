import { randomBytes } from "node:crypto";
import { env } from "../core/env";
import { localStorage } from "./local-storage";
import { s3Storage } from "./s3-storage";

// Where ticket files go. Each attachment records which storage it was promised to, so changing
// the configuration later does not lose track of files already uploaded.

export type StorageKind = "local" | "s3";

export interface UploadTarget {
  attachmentId: string;
  storageKey: string;
  bytes: number;
  contentType: string;
}

/** Where to PUT one file, and the headers (besides Content-Type) the PUT must carry. */
export interface PresignedPut {
  url: string;
  /** Signed into the URL: a PUT without them fails the signature. Absent when there are none. */
  headers?: Record<string, string>;
}

export interface UploadStorage {
  readonly kind: StorageKind;
  /** An absolute URL accepting one PUT of exactly `bytes` bytes of `contentType`, until `expires` (Unix seconds). */
  presignPut(target: UploadTarget, expires: number): Promise<PresignedPut>;
  /**
   * For an attachment not yet marked uploaded: whether its bytes have arrived and pass the checks.
   * Storage that sees every upload itself (local) marks attachments as they arrive and answers false.
   */
  confirmUpload(target: UploadTarget): Promise<boolean>;
  /** The stored bytes of an uploaded file, or null when they are not there. */
  read(storageKey: string): Promise<ReadableStream<Uint8Array> | null>;
}

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

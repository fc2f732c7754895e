// What every place that keeps ticket files offers (local disk, S3-compatible): a module of its own,
// so the places and the chooser (storage.ts) import it without importing each other.

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
  /** Stores a file the service received itself (an emailed attachment), whole, under its key. */
  write(storageKey: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The stored bytes of an uploaded file, or null when they are not there. */
  read(storageKey: string): Promise<ReadableStream<Uint8Array> | null>;
  /** Deletes the stored bytes; a file already gone is not an error (erasure runs again safely). */
  remove(storageKey: string): Promise<void>;
}

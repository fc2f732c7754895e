import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { env } from "../core/env";
import { log } from "../core/log";
import { bytesMatchType, canSniffType } from "../core/file-sniffing";
import type { UploadStorage, UploadTarget } from "./upload-storage";
import { processSingleton } from "../core/process-registry.mjs";

// S3-compatible storage (AWS S3, Cloudflare R2, MinIO): a presigned PUT with Content-Length and
// Content-Type signed, so the store itself refuses any other size or type, and with
// `If-None-Match: *` signed too: a conditional write, which the store refuses (412) once the object
// exists, so the URL cannot be replayed to replace a file within its 15 minutes. The client must
// send that header (the ticket reply lists it in `upload_headers`); without it the signature fails. S3 cannot inspect the
// bytes on the way in, so the first bytes of images and PDFs are checked when the operator lists
// tickets, or when a chat message is sent with the file; an upload that fails is deleted and stays
// "not uploaded".

const SIGNED_HEADERS = new Set(["content-length", "content-type", "if-none-match"]);
/** Headers the uploader must send besides Content-Type (browsers set Content-Length themselves). */
const UPLOAD_HEADERS = { "If-None-Match": "*" } as const;
const HEAD_BYTES = 16;

// One client per process (lib/core/process-registry.mjs), made on first use.
function client(): S3Client {
  return processSingleton("s3 client", () => newClient(env()));
}

function newClient(config: ReturnType<typeof env>): S3Client {
  return new S3Client({
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined, // the SDK's default chain (instance role, AWS_* variables)
    // A checksum of the (empty) body would otherwise be baked into presigned URLs.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

const bucket = () => env().S3_BUCKET!;

async function firstBytes(key: string): Promise<Uint8Array> {
  const object = await client().send(new GetObjectCommand({ Bucket: bucket(), Key: key, Range: `bytes=0-${HEAD_BYTES - 1}` }));
  return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
}

function isMissing(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return status === 404 || (error as { name?: string })?.name === "NotFound";
}

async function confirmUpload(target: UploadTarget): Promise<boolean> {
  try {
    const head = await client().send(new HeadObjectCommand({ Bucket: bucket(), Key: target.storageKey }));
    if (head.ContentLength !== target.bytes) return false;
    if (canSniffType(target.contentType) && !bytesMatchType(target.contentType, await firstBytes(target.storageKey))) {
      await client().send(new DeleteObjectCommand({ Bucket: bucket(), Key: target.storageKey }));
      log.info("upload_discarded", { attachmentId: target.attachmentId, reason: "signature_mismatch" });
      return false;
    }
    return true;
  } catch (error) {
    if (!isMissing(error)) log.warn("s3_check_failed", { attachmentId: target.attachmentId, error });
    return false;
  }
}

let storage: UploadStorage | undefined;

export function s3Storage(): UploadStorage {
  storage ??= {
    kind: "s3",
    async presignPut(target, expires) {
      const command = new PutObjectCommand({
        Bucket: bucket(),
        Key: target.storageKey,
        ContentLength: target.bytes,
        ContentType: target.contentType,
        IfNoneMatch: UPLOAD_HEADERS["If-None-Match"],
      });
      const expiresIn = Math.max(1, expires - Math.floor(Date.now() / 1000));
      const url = await getSignedUrl(client(), command, { expiresIn, signableHeaders: SIGNED_HEADERS });
      return { url, headers: { ...UPLOAD_HEADERS } };
    },
    confirmUpload,
    async write(storageKey, bytes, contentType) {
      await client().send(new PutObjectCommand({ Bucket: bucket(), Key: storageKey, Body: bytes, ContentType: contentType, IfNoneMatch: "*" }));
    },
    async read(storageKey) {
      try {
        const object = await client().send(new GetObjectCommand({ Bucket: bucket(), Key: storageKey }));
        return object.Body ? (object.Body.transformToWebStream() as ReadableStream<Uint8Array>) : null;
      } catch (error) {
        if (isMissing(error) || (error as { name?: string })?.name === "NoSuchKey") return null;
        throw error;
      }
    },
    async remove(storageKey) {
      // S3 answers a delete of a missing key with success too.
      await client().send(new DeleteObjectCommand({ Bucket: bucket(), Key: storageKey }));
    },
  };
  return storage;
}

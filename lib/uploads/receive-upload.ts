import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { db } from "../db/client";
import { AppError, ClientAbortError, invalidRequest } from "../core/errors";
import { bytesMatchType } from "../core/file-sniffing";
import type { UploadGrant } from "./authorize-upload";
import { incomingDir, storedFilePath } from "./local-storage";

// Receives the one PUT an upload URL allows. The bytes are written to a temporary file and moved
// into place only after every check passed and the attachment was claimed, so a refused upload
// leaves nothing behind, and of two racing PUTs exactly one is kept.

const HEAD_BYTES = 16;

const alreadyUploaded = () => new AppError("already_uploaded", "This file has already been uploaded.");

export async function receiveUpload(grant: UploadGrant, request: Request) {
  if (grant.uploaded) throw alreadyUploaded();
  const contentType = request.headers.get("content-type");
  if (contentType !== grant.contentType) {
    throw invalidRequest(`Content-Type must be exactly ${grant.contentType}.`, [{ path: "Content-Type", problem: "differs from the described file" }]);
  }
  const declared = request.headers.get("content-length");
  if (declared === null || !/^\d+$/.test(declared) || Number(declared) !== grant.bytes) {
    throw invalidRequest(`Content-Length must be exactly ${grant.bytes}.`, [{ path: "Content-Length", problem: "differs from the described file" }]);
  }

  await mkdir(incomingDir(), { recursive: true, mode: 0o700 });
  const temporary = path.join(incomingDir(), randomBytes(16).toString("hex"));
  try {
    const head = await writeExactly(request, temporary, grant.bytes);
    if (!bytesMatchType(grant.contentType, head)) {
      throw invalidRequest(`The file's content is not ${grant.contentType}.`, [{ path: "body", problem: "does not match the described type" }]);
    }
    const destination = storedFilePath(grant.storageKey);
    await mkdir(path.dirname(destination), { recursive: true, mode: 0o700 });
    await (await db()).$transaction(async (tx) => {
      const claim = { where: { id: grant.attachmentId, uploadedAt: null }, data: { uploadedAt: new Date() } };
      const claimed = grant.record === "ticket" ? await tx.ticketAttachment.updateMany(claim) : await tx.messageAttachment.updateMany(claim);
      if (claimed.count !== 1) throw alreadyUploaded();
      await rename(temporary, destination);
    });
  } finally {
    await rm(temporary, { force: true });
  }
  return { attachment_id: grant.attachmentId, bytes: grant.bytes, content_type: grant.contentType };
}

/** Streams the body to `file`, refusing it as soon as it runs past `expected` bytes or ends short. */
async function writeExactly(request: Request, file: string, expected: number): Promise<Uint8Array> {
  const out = createWriteStream(file, { flags: "wx", mode: 0o600 });
  const finished = new Promise<void>((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
  });
  finished.catch(() => {}); // awaited below; a write error must not surface as an unhandled rejection first
  const head: number[] = [];
  let received = 0;
  const reader = request.body?.getReader();
  try {
    for (;;) {
      // A failed read is the client hanging up mid-upload (ECONNRESET): not a lost database.
      const chunk = reader ? await reader.read().catch(() => Promise.reject(new ClientAbortError())) : { done: true as const, value: undefined };
      if (chunk.done) break;
      received += chunk.value.byteLength;
      if (received > expected) throw lengthMismatch(expected);
      for (let i = 0; head.length < HEAD_BYTES && i < chunk.value.byteLength; i++) head.push(chunk.value[i]!);
      if (!out.write(chunk.value)) await once(out, "drain"); // rejects if the write fails meanwhile
    }
  } catch (error) {
    await reader?.cancel().catch(() => {});
    out.destroy();
    // The file may still be opening: wait, or the caller's cleanup could run before it exists.
    if (!out.closed) await once(out, "close").catch(() => {});
    throw error;
  }
  out.end();
  await finished;
  if (received !== expected) throw lengthMismatch(expected);
  return Uint8Array.from(head);
}

const lengthMismatch = (expected: number) =>
  invalidRequest(`The body must be exactly ${expected} bytes.`, [{ path: "body", problem: "length differs from Content-Length" }]);

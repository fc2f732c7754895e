import { createReadStream } from "node:fs";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { tmpdir } from "node:os";
import path from "node:path";
import { env, serviceOrigin } from "../core/env";
import type { UploadStorage } from "./upload-storage";
import { serviceSigningSecret } from "../secrets/signing-secret";
import { signUpload } from "./upload-signature";

// The default destination: PUT /api/v1/uploads/{attachmentId}?expires=…&signature=… on this
// service, which checks the request and stores the bytes under UPLOADS_DIR (default DATA_DIR/uploads).

export function uploadsDir(): string {
  const { UPLOADS_DIR, DATA_DIR } = env();
  if (UPLOADS_DIR) return path.resolve(UPLOADS_DIR);
  if (DATA_DIR.startsWith("memory://")) return path.join(tmpdir(), "parley-uploads");
  return path.resolve(DATA_DIR, "uploads");
}

/** Where a stored key lives; keys are server-generated hex, so they never climb out of the folder. */
export const storedFilePath = (storageKey: string) => path.join(uploadsDir(), ...storageKey.split("/"));

/** Incoming bytes are written here first and renamed into place only once they pass every check. */
export const incomingDir = () => path.join(uploadsDir(), ".incoming");

export const localStorage: UploadStorage = {
  kind: "local",
  async presignPut(target, expires) {
    const signature = signUpload(
      { attachmentId: target.attachmentId, bytes: target.bytes, contentType: target.contentType, expires },
      await serviceSigningSecret(),
    );
    const url = new URL(`/api/v1/uploads/${encodeURIComponent(target.attachmentId)}`, serviceOrigin());
    url.searchParams.set("expires", String(expires));
    url.searchParams.set("signature", signature);
    return { url: url.toString() }; // one use is enforced by the route itself (409 already_uploaded)
  },
  async confirmUpload() {
    return false;
  },
  async write(storageKey, bytes) {
    const file = storedFilePath(storageKey);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, bytes, { flag: "wx", mode: 0o600 });
  },
  async read(storageKey) {
    const file = storedFilePath(storageKey);
    if (!(await stat(file).catch(() => null))?.isFile()) return null;
    return Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  },
  async remove(storageKey) {
    await rm(storedFilePath(storageKey), { force: true });
  },
};

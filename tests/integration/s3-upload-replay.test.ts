import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSite } from "../support/fixtures";
import { verifyPresignedUrl } from "../support/sigv4";
import { startStrictS3Front } from "../support/strict-s3-front";
import { file, fileTicket, PNG_BYTES, ticket } from "../support/tickets";

// Issue 9, item 7: a presigned S3 PUT could be replayed for its 15 minutes, replacing a file staff
// already saw. The PUT is now signed as a conditional write (`If-None-Match: *`). The emulator sits
// behind a front that checks SigV4 and conditional writes as S3 does (tests/support/strict-s3-front.ts).
const BUCKET = "parley-replay";
const SECRET = "S3RVER";
const s3Dir = mkdtempSync(path.join(tmpdir(), "parley-s3rver-"));
const s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] });
const { port } = await s3.run();
const front = await startStrictS3Front(`http://127.0.0.1:${port}`, SECRET);
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
Object.assign(process.env, {
  S3_BUCKET: BUCKET,
  S3_ENDPOINT: front.url,
  S3_REGION: "us-east-1",
  S3_ACCESS_KEY_ID: "S3RVER",
  S3_SECRET_ACCESS_KEY: SECRET,
  S3_FORCE_PATH_STYLE: "true",
});

afterAll(async () => {
  await front.close();
  await s3.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

let siteId: string;
beforeAll(async () => {
  siteId = (await createSite()).id;
});

type Upload = { upload_url: string; upload_headers?: Record<string, string> };
const put = (upload: Upload, body: Uint8Array, headers: Record<string, string> = upload.upload_headers ?? {}) =>
  fetch(upload.upload_url, { method: "PUT", body: body as BodyInit, headers: { "Content-Type": "image/png", ...headers } });
const stored = async (upload: Upload) => Buffer.from(await (await fetch(upload.upload_url.split("?")[0]!)).arrayBuffer());

describe("presigned S3 PUTs are one use", () => {
  test("each upload entry says which headers to send, and the signature covers If-None-Match", async () => {
    const { uploads } = await fileTicket(siteId, ticket({ files: [file()] }));
    const upload = uploads[0]! as Upload;
    expect(upload.upload_headers).toEqual({ "If-None-Match": "*" });
    expect(new URL(upload.upload_url).searchParams.get("X-Amz-SignedHeaders")).toBe("content-length;content-type;host;if-none-match");
    const exact = { "content-length": String(PNG_BYTES.length), "content-type": "image/png" };
    expect(verifyPresignedUrl({ method: "PUT", url: upload.upload_url, headers: { ...exact, "if-none-match": "*" } }, SECRET)).toBe(true);
    expect(verifyPresignedUrl({ method: "PUT", url: upload.upload_url, headers: exact }, SECRET)).toBe(false);
    expect(verifyPresignedUrl({ method: "PUT", url: upload.upload_url, headers: { ...exact, "if-none-match": '"etag"' } }, SECRET)).toBe(false);
  });

  test("the first PUT lands; replaying the same URL with other bytes is refused and the file stays", async () => {
    const { uploads } = await fileTicket(siteId, ticket({ files: [file()] }));
    const upload = uploads[0]! as Upload;
    expect((await put(upload, PNG_BYTES)).status).toBe(200);
    const replacement = Buffer.from(PNG_BYTES);
    replacement[PNG_BYTES.length - 1] = replacement[PNG_BYTES.length - 1]! ^ 0xff; // same length and type, other content
    const replay = await put(upload, replacement);
    expect(replay.status).toBe(412);
    expect(await stored(upload)).toEqual(PNG_BYTES);
  });

  test("a PUT that leaves out If-None-Match fails the signature, before or after the upload", async () => {
    const { uploads } = await fileTicket(siteId, ticket({ files: [file()] }));
    const upload = uploads[0]! as Upload;
    expect((await put(upload, PNG_BYTES, {})).status).toBe(403);
    expect((await put(upload, PNG_BYTES)).status).toBe(200);
    expect((await put(upload, PNG_BYTES, {})).status).toBe(403);
  });
});

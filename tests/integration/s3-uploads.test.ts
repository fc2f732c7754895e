import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, openConversation, visitor } from "../support/fixtures";
import { verifyPresignedUrl } from "../support/sigv4";
import { file, fileTicket, filesUnder, listTickets, PNG_BYTES, ticket } from "../support/tickets";

// Ticket files going to S3-compatible storage, against an S3 emulator (s3rver) on loopback.
const BUCKET = "parley-test";
const SECRET = "S3RVER"; // s3rver's built-in account
const s3Dir = mkdtempSync(path.join(tmpdir(), "parley-s3rver-"));
const s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] });
const { port } = await s3.run();
const endpoint = `http://127.0.0.1:${port}`;
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true"; // the pinned SDK runs on Node 20
Object.assign(process.env, {
  S3_BUCKET: BUCKET,
  S3_ENDPOINT: endpoint,
  S3_REGION: "us-east-1",
  S3_ACCESS_KEY_ID: "S3RVER",
  S3_SECRET_ACCESS_KEY: SECRET,
  S3_FORCE_PATH_STYLE: "true",
});

afterAll(async () => {
  await s3.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

let siteId: string;
beforeAll(async () => {
  siteId = (await createSite()).id;
});

// As the widget sends it: Content-Type plus the entry's `upload_headers` (If-None-Match: *).
const put = (url: string, body: Uint8Array, contentType: string) =>
  fetch(url, { method: "PUT", body: body as BodyInit, headers: { "Content-Type": contentType, "If-None-Match": "*" } });
const objectStatus = async (url: string) => (await fetch(url.split("?")[0]!, { method: "HEAD" })).status;
const attachment = async (id: string) => (await listTickets(siteId)).flatMap((row) => row.attachments).find((a) => a.id === id)!;

describe("presigned PUT URLs to S3-compatible storage", () => {
  test("point at the bucket, under a server-generated key, valid 15 minutes", async () => {
    const { uploads } = await fileTicket(siteId, ticket({ files: [file({ name: "holiday photo.png" })] }));
    const url = new URL(uploads[0]!.upload_url);
    expect(url.origin).toBe(endpoint);
    expect(url.pathname).toMatch(new RegExp(`^/${BUCKET}/attachments/[0-9a-f]{32}$`));
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-length;content-type;host;if-none-match");
    expect((uploads[0] as { upload_headers?: unknown }).upload_headers).toEqual({ "If-None-Match": "*" });
    expect([...url.searchParams.keys()].some((key) => key.toLowerCase().startsWith("x-amz-checksum"))).toBe(false);
    expect(uploads[0]!.upload_url.length).toBeLessThanOrEqual(2000);
  });

  test("are bound to the described length and type: any other signs differently", async () => {
    const { uploads } = await fileTicket(siteId, ticket({ files: [file()] }));
    const url = uploads[0]!.upload_url;
    const exact = { "content-length": String(PNG_BYTES.length), "content-type": "image/png", "if-none-match": "*" };
    expect(verifyPresignedUrl({ method: "PUT", url, headers: exact }, SECRET)).toBe(true);
    expect(verifyPresignedUrl({ method: "PUT", url, headers: { ...exact, "content-length": String(PNG_BYTES.length + 1) } }, SECRET)).toBe(false);
    expect(verifyPresignedUrl({ method: "PUT", url, headers: { ...exact, "content-type": "text/html" } }, SECRET)).toBe(false);
    expect(verifyPresignedUrl({ method: "PUT", url, headers: { "content-type": "image/png" } }, SECRET)).toBe(false);
    const { "if-none-match": _, ...unconditional } = exact;
    expect(verifyPresignedUrl({ method: "PUT", url, headers: unconditional }, SECRET)).toBe(false);
    const otherKey = url.replace(/attachments\/[0-9a-f]{32}/, `attachments/${"0".repeat(32)}`);
    expect(verifyPresignedUrl({ method: "PUT", url: otherKey, headers: exact }, SECRET)).toBe(false);
    const longer = url.replace("X-Amz-Expires=900", "X-Amz-Expires=86400");
    expect(verifyPresignedUrl({ method: "PUT", url: longer, headers: exact }, SECRET)).toBe(false);
    const later = new Date(Date.now() + 16 * 60 * 1000);
    expect(verifyPresignedUrl({ method: "PUT", url, headers: exact, now: later }, SECRET)).toBe(false);
  });

  test("an upload lands in the bucket; the operator's list then shows it uploaded", async () => {
    const { uploads } = await fileTicket(siteId, ticket({ files: [file()] }));
    const { attachment_id: id, upload_url: url } = uploads[0]!;
    expect((await attachment(id)).uploaded).toBe(false);
    const response = await put(url, PNG_BYTES, "image/png");
    expect(response.status).toBe(200);
    const stored = await fetch(url.split("?")[0]!);
    expect(Buffer.from(await stored.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
    expect((await attachment(id)).uploaded).toBe(true);
    const row = await (await db()).ticketAttachment.findUniqueOrThrow({ where: { id } });
    expect(row.storage).toBe("s3");
    expect(row.uploadedAt).not.toBeNull();
  });

  test("staff download a file from the bucket (confirmed on first download); a missing one is 404", async () => {
    const { uploads } = await fileTicket(siteId, ticket({ files: [file(), file({ name: "never.png" })] }));
    const { attachment_id: id, upload_url: url } = uploads[0]!;
    const missing = uploads[1]!.attachment_id;
    expect((await put(url, PNG_BYTES, "image/png")).status).toBe(200);
    const { GET } = await import("../../app/api/v1/admin/attachments/[id]/route");
    const download = (attachmentId: string) =>
      GET(new Request(`http://localhost:3000/api/v1/admin/attachments/${attachmentId}`, { headers: { authorization: `Bearer ${process.env.ADMIN_TOKEN}` } }), {
        params: Promise.resolve({ id: attachmentId }),
      });
    const response = await download(id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="photo.png"/);
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
    expect((await download(missing)).status).toBe(404);
  });

  test("an image whose bytes are not that image is discarded and stays not uploaded", async () => {
    const fake = Buffer.from("<svg onload=alert(1)>".padEnd(PNG_BYTES.length, " "));
    const { uploads } = await fileTicket(siteId, ticket({ files: [file()] }));
    const { attachment_id: id, upload_url: url } = uploads[0]!;
    expect((await put(url, fake, "image/png")).status).toBe(200); // the bucket cannot look inside
    expect(await objectStatus(url)).toBe(200);
    expect((await attachment(id)).uploaded).toBe(false);
    expect(await objectStatus(url)).toBe(404);
  });

  test("a file of another length than described never counts as uploaded", async () => {
    const { uploads } = await fileTicket(siteId, ticket({ files: [file({ name: "a.txt", content_type: "text/plain", bytes: 5 })] }));
    const { attachment_id: id, upload_url: url } = uploads[0]!;
    // The emulator does not check signatures; real S3 refuses this PUT outright (see above).
    await put(url, Buffer.from("much longer than five"), "text/plain");
    expect((await attachment(id)).uploaded).toBe(false);
  });

  test("nothing is written to local disk", async () => {
    expect(filesUnder(process.env.UPLOADS_DIR!)).toEqual([]);
  });
});

describe("a chat's files on S3-compatible storage", () => {
  test("are confirmed when sent; bytes that are not their type are deleted and the send is 409", async () => {
    const started = await openConversation();
    const describeFile = async () =>
      (await api.post("/api/v1/chat/visitor/uploads", { ...visitor(started), body: file() })).json.result as { attachment_id: string; upload_url: string };
    const send = (id: string) => api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { client_id: id, attachments: [id] } });

    const good = await describeFile();
    expect(new URL(good.upload_url).origin).toBe(endpoint);
    expect((await put(good.upload_url, PNG_BYTES, "image/png")).status).toBe(200);
    const sent = await send(good.attachment_id);
    expect(sent.status).toBe(201);
    expect(sent.json.result.message.attachments).toHaveLength(1);

    const forged = await describeFile();
    expect((await put(forged.upload_url, Buffer.from("%PDF-1.4".padEnd(PNG_BYTES.length, " ")), "image/png")).status).toBe(200);
    expectError(await send(forged.attachment_id), 409, "upload_incomplete");
    expect(await objectStatus(forged.upload_url)).toBe(404);
  });
});


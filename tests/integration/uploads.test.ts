import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { serviceSigningSecret } from "../../lib/secrets/signing-secret";
import { signUpload } from "../../lib/uploads/upload-signature";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN, OTHER_ORIGIN } from "../support/fixtures";
import { rowCounts } from "../support/row-counts";
import { file, fileTicket, filesUnder, listTickets, PDF_BYTES, PNG_BYTES, putUpload, ticket } from "../support/tickets";

const uploadsDir = process.env.UPLOADS_DIR!;
let siteId: string;

beforeAll(async () => {
  siteId = (await createSite({ origins: [ORIGIN, OTHER_ORIGIN] })).id;
});

/** A ticket with one described file; returns its upload. */
async function oneUpload(described: Record<string, unknown> = {}) {
  const reply = await fileTicket(siteId, ticket({ files: [file(described)] }));
  return reply.uploads[0]!;
}

const uploadedAt = async (attachmentId: string) =>
  (await (await db()).ticketAttachment.findUniqueOrThrow({ where: { id: attachmentId } })).uploadedAt;

/** Runs a request that must be refused, and proves it stored nothing: no row, no file, no mark. */
async function expectRefusedWithoutTrace(attachmentId: string, request: () => Promise<Parameters<typeof expectError>[0]>, status: number, code: string) {
  const rows = await rowCounts();
  const files = filesUnder(uploadsDir);
  expectError(await request(), status, code);
  expect(await rowCounts()).toEqual(rows);
  expect(filesUnder(uploadsDir)).toEqual(files);
  expect(await uploadedAt(attachmentId)).toBeNull();
}

describe("the service's own upload URL", () => {
  test("accepts one PUT of exactly the described bytes and type, and keeps the bytes on disk", async () => {
    const upload = await oneUpload();
    const url = new URL(upload.upload_url);
    expect(url.pathname).toBe(`/api/v1/uploads/${upload.attachment_id}`);
    expect([...url.searchParams.keys()].sort()).toEqual(["expires", "signature"]);
    const expires = Number(url.searchParams.get("expires"));
    expect(expires - Date.now() / 1000).toBeGreaterThan(14 * 60);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(15 * 60);

    const response = await putUpload(upload.upload_url, PNG_BYTES);
    expect(response.status).toBe(200);
    expect(response.json.result).toEqual({ attachment_id: upload.attachment_id, bytes: PNG_BYTES.length, content_type: "image/png" });
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);

    const stored = filesUnder(uploadsDir).filter((name) => !name.startsWith(".incoming"));
    const mine = stored.map((name) => path.join(uploadsDir, name)).filter((name) => readFileSync(name).equals(PNG_BYTES));
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(stored.every((name) => !name.includes("photo"))).toBe(true);
    expect(filesUnder(path.join(uploadsDir, ".incoming"))).toEqual([]);
    expect(await uploadedAt(upload.attachment_id)).not.toBeNull();

    const listed = (await listTickets(siteId)).flatMap((row) => row.attachments).find((a) => a.id === upload.attachment_id);
    expect(listed!.uploaded).toBe(true);
  });

  test("a second PUT after success is 409 already_uploaded and changes nothing", async () => {
    const upload = await oneUpload();
    expect((await putUpload(upload.upload_url, PNG_BYTES)).status).toBe(200);
    const files = filesUnder(uploadsDir);
    expectError(await putUpload(upload.upload_url, PNG_BYTES), 409, "already_uploaded");
    expect(filesUnder(uploadsDir)).toEqual(files);
  });

  test("of several concurrent PUTs exactly one is kept", async () => {
    const upload = await oneUpload({ name: "a.txt", content_type: "text/plain", bytes: 4 });
    const responses = await Promise.all(
      ["aaaa", "bbbb", "cccc", "dddd", "eeee"].map((text) => putUpload(upload.upload_url, Buffer.from(text), { contentType: "text/plain" })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(filesUnder(path.join(uploadsDir, ".incoming"))).toEqual([]);
  });

  test("PDFs, text and empty files upload too", async () => {
    const pdf = await oneUpload({ name: "a.pdf", content_type: "application/pdf", bytes: PDF_BYTES.length });
    expect((await putUpload(pdf.upload_url, PDF_BYTES, { contentType: "application/pdf" })).status).toBe(200);
    const text = await oneUpload({ name: "a.csv", content_type: "text/csv", bytes: 6 });
    expect((await putUpload(text.upload_url, Buffer.from("a,b\n1,"), { contentType: "text/csv" })).status).toBe(200);
    const empty = await oneUpload({ name: "empty.txt", content_type: "text/plain", bytes: 0 });
    expect((await putUpload(empty.upload_url, new Uint8Array(), { contentType: "text/plain" })).status).toBe(200);
  });

  test("a page without an Origin (a script, curl) may upload: the signature is the credential", async () => {
    const upload = await oneUpload();
    const response = await putUpload(upload.upload_url, PNG_BYTES, { origin: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("a tampered or stale URL is refused and stores nothing", () => {
  test("another attachment's id with this signature → 403 upload_url_invalid", async () => {
    const mine = await oneUpload();
    const other = await oneUpload();
    const swapped = mine.upload_url.replace(mine.attachment_id, other.attachment_id);
    await expectRefusedWithoutTrace(other.attachment_id, () => putUpload(swapped, PNG_BYTES), 403, "upload_url_invalid");
  });

  test("a later expiry → 403 upload_url_invalid", async () => {
    const upload = await oneUpload();
    const url = new URL(upload.upload_url);
    url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    await expectRefusedWithoutTrace(upload.attachment_id, () => putUpload(url.toString(), PNG_BYTES), 403, "upload_url_invalid");
  });

  test.each([
    ["an altered signature", (url: URL) => url.searchParams.set("signature", `${url.searchParams.get("signature")!.slice(0, -2)}AA`)],
    ["no signature", (url: URL) => url.searchParams.delete("signature")],
    ["no expiry", (url: URL) => url.searchParams.delete("expires")],
    ["a non-numeric expiry", (url: URL) => url.searchParams.set("expires", "soon")],
  ])("%s → 403 upload_url_invalid", async (_name, tamper) => {
    const upload = await oneUpload();
    const url = new URL(upload.upload_url);
    tamper(url);
    await expectRefusedWithoutTrace(upload.attachment_id, () => putUpload(url.toString(), PNG_BYTES), 403, "upload_url_invalid");
  });

  test("a signature made for another length or type → 403 upload_url_invalid", async () => {
    const upload = await oneUpload();
    const url = new URL(upload.upload_url);
    const expires = Number(url.searchParams.get("expires"));
    const secret = await serviceSigningSecret();
    for (const other of [
      { bytes: PNG_BYTES.length + 1, contentType: "image/png" },
      { bytes: PNG_BYTES.length, contentType: "text/plain" },
    ]) {
      url.searchParams.set("signature", signUpload({ attachmentId: upload.attachment_id, expires, ...other }, secret));
      await expectRefusedWithoutTrace(
        upload.attachment_id,
        () => putUpload(url.toString(), PNG_BYTES, { contentType: other.contentType, contentLength: String(other.bytes) }),
        403,
        "upload_url_invalid",
      );
    }
  });

  test("an unknown attachment id → 403 upload_url_invalid", async () => {
    const upload = await oneUpload();
    const forged = upload.upload_url.replace(upload.attachment_id, "00000000-0000-4000-8000-000000000000");
    const files = filesUnder(uploadsDir);
    expectError(await putUpload(forged, PNG_BYTES), 403, "upload_url_invalid");
    expect(filesUnder(uploadsDir)).toEqual(files);
  });

  test("a correctly signed URL past its expiry → 403 upload_url_expired", async () => {
    const upload = await oneUpload();
    const expires = Math.floor(Date.now() / 1000) - 1;
    const url = new URL(upload.upload_url);
    url.searchParams.set("expires", String(expires));
    url.searchParams.set(
      "signature",
      signUpload({ attachmentId: upload.attachment_id, bytes: PNG_BYTES.length, contentType: "image/png", expires }, await serviceSigningSecret()),
    );
    await expectRefusedWithoutTrace(upload.attachment_id, () => putUpload(url.toString(), PNG_BYTES), 403, "upload_url_expired");
    // Readable by the page, which can then ask for a fresh URL (an Idempotency-Key replay re-signs).
    expect((await putUpload(url.toString(), PNG_BYTES)).headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });
});

describe("a PUT that differs from the description is refused and stores nothing", () => {
  test.each([
    ["another Content-Type", { contentType: "image/jpeg" }],
    ["a Content-Type with parameters", { contentType: "image/png; charset=binary" }],
    ["a larger Content-Length", { contentLength: String(PNG_BYTES.length + 1) }],
    ["a smaller Content-Length", { contentLength: String(PNG_BYTES.length - 1) }],
    ["no Content-Length", { contentLength: null }],
    ["a malformed Content-Length", { contentLength: "12abc" }],
  ])("%s → 400 invalid_request", async (_name, options) => {
    const upload = await oneUpload();
    await expectRefusedWithoutTrace(upload.attachment_id, () => putUpload(upload.upload_url, PNG_BYTES, options), 400, "invalid_request");
  });

  test("a body longer than its Content-Length → 400", async () => {
    const upload = await oneUpload();
    const longer = Buffer.concat([PNG_BYTES, Buffer.from("extra")]);
    await expectRefusedWithoutTrace(
      upload.attachment_id,
      () => putUpload(upload.upload_url, longer, { contentLength: String(PNG_BYTES.length) }),
      400,
      "invalid_request",
    );
  });

  test("a body shorter than its Content-Length → 400", async () => {
    const upload = await oneUpload();
    await expectRefusedWithoutTrace(
      upload.attachment_id,
      () => putUpload(upload.upload_url, PNG_BYTES.subarray(0, 10), { contentLength: String(PNG_BYTES.length) }),
      400,
      "invalid_request",
    );
  });

  test.each([
    ["image/png", "HTML labelled as PNG", Buffer.from("<html><script>alert(1)</script></html>")],
    ["image/jpeg", "a PNG labelled as JPEG", PNG_BYTES],
    ["image/gif", "text labelled as GIF", Buffer.from("GIF87 not really")],
    ["image/webp", "RIFF that is not WEBP", Buffer.from("RIFF\u0000\u0000\u0000\u0000WAVEfmt ")],
    ["application/pdf", "text labelled as PDF", Buffer.from("not a pdf at all")],
  ])("%s: %s → 400, discarded", async (contentType, _name, bytes) => {
    const upload = await oneUpload({ name: "x", content_type: contentType, bytes: bytes.length });
    await expectRefusedWithoutTrace(
      upload.attachment_id,
      () => putUpload(upload.upload_url, bytes, { contentType }),
      400,
      "invalid_request",
    );
  });

  test("after a refused PUT, a correct one still succeeds", async () => {
    const upload = await oneUpload();
    expectError(await putUpload(upload.upload_url, Buffer.alloc(PNG_BYTES.length)), 400, "invalid_request");
    expect((await putUpload(upload.upload_url, PNG_BYTES)).status).toBe(200);
  });

  test("an Origin not on the ticket's site allowlist → 403 origin_not_allowed", async () => {
    const upload = await oneUpload();
    await expectRefusedWithoutTrace(
      upload.attachment_id,
      () => putUpload(upload.upload_url, PNG_BYTES, { origin: "https://evil.example" }),
      403,
      "origin_not_allowed",
    );
  });
});

describe("the upload route's CORS and methods", () => {
  test("a preflight from the site's origin is allowed for PUT with Content-Type", async () => {
    const upload = await oneUpload();
    const response = await api.options(upload.upload_url, { origin: OTHER_ORIGIN });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(OTHER_ORIGIN);
    expect(response.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(response.headers.get("access-control-allow-headers")).toContain("Content-Type");
  });

  test("a preflight from another origin is 403; for an unknown attachment 404", async () => {
    const upload = await oneUpload();
    expectError(await api.options(upload.upload_url, { origin: "https://evil.example" }), 403, "origin_not_allowed");
    expectError(await api.options("/api/v1/uploads/unknown-id?expires=1&signature=x", { origin: ORIGIN }), 404, "not_found");
  });

  test("other methods are 404 not_found", async () => {
    const upload = await oneUpload();
    expectError(await api.get(upload.upload_url, { origin: ORIGIN }), 404, "not_found");
    expectError(await api.post(upload.upload_url, { origin: ORIGIN, body: {} }), 404, "not_found");
  });
});

import { beforeAll, describe, expect, test } from "vitest";
import { dailyUsage } from "../../lib/allowance/daily-allowance";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN, OTHER_ORIGIN, startConversation } from "../support/fixtures";
import { rowCounts } from "../support/row-counts";
import { file, fileTicket, listTickets, postTicket, ticket } from "../support/tickets";

const MIB = 1024 * 1024;
let siteId: string;

beforeAll(async () => {
  siteId = (await createSite()).id;
});

describe("filing a request", () => {
  test("answers 201 with the number, the subject and one upload per described file", async () => {
    const site = await createSite();
    const response = await postTicket(site.id, ticket({ files: [file(), file({ name: "invoice.pdf", content_type: "application/pdf", bytes: 2048 })] }));
    expect(response.status).toBe(201);
    expect(response.json.success).toBe(true);
    expect(response.json.message.length).toBeLessThanOrEqual(256);
    const result = response.json.result;
    expect(Object.keys(result).sort()).toEqual(["number", "subject", "uploads"]);
    expect(result.number).toBe(1);
    expect(result.subject).toBe("My order");
    expect(result.uploads.map((upload: { name: string }) => upload.name)).toEqual(["photo.png", "invoice.pdf"]);
    for (const upload of result.uploads) {
      expect(Object.keys(upload).sort()).toEqual(["attachment_id", "name", "upload_url"]);
      expect(upload.attachment_id.length).toBeLessThanOrEqual(64);
      expect(upload.upload_url.length).toBeLessThanOrEqual(2000);
      expect(new URL(upload.upload_url).protocol).toMatch(/^https?:$/); // absolute
      expect(upload.upload_url).not.toContain("photo"); // storage keys never come from file names
    }
    expect(new Set(result.uploads.map((upload: { attachment_id: string }) => upload.attachment_id)).size).toBe(2);
  });

  test("issues no visitor token", async () => {
    const response = await postTicket(siteId, ticket());
    expect(JSON.stringify(response.json)).not.toContain("vt_");
    expect(await (await db()).visitorToken.count({ where: { conversation: { siteId } } })).toBe(0);
  });

  test("without files, uploads is an empty list", async () => {
    expect((await fileTicket(siteId, ticket())).uploads).toEqual([]);
  });

  test("numbers run per inbox from 1, with no gaps under concurrency", async () => {
    const site = await createSite();
    const replies = await Promise.all(Array.from({ length: 20 }, () => fileTicket(site.id)));
    expect(replies.map((reply) => reply.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const other = await createSite();
    expect((await fileTicket(other.id)).number).toBe(1);
  });

  test("priority defaults to normal and keeps a given one", async () => {
    const site = await createSite();
    await fileTicket(site.id, ticket({ subject: "default" }));
    await fileTicket(site.id, ticket({ subject: "urgent one", priority: "urgent" }));
    const listed = await listTickets(site.id);
    expect(Object.fromEntries(listed.map((row) => [row.subject, row.priority]))).toEqual({ default: "normal", "urgent one": "urgent" });
  });

  test("lands in the same inbox as the site's chats", async () => {
    const site = await createSite();
    const { conversationId } = await startConversation(site.id);
    await fileTicket(site.id);
    const conversation = await (await db()).conversation.findUniqueOrThrow({ where: { id: conversationId } });
    const [listed] = await listTickets(site.id);
    expect(listed!.inbox_id).toBe(site.inbox_id);
    expect(conversation.inboxId).toBe(site.inbox_id);
  });

  test("accepts exactly 10 files of exactly 10 MiB, and an empty file", async () => {
    const files = Array.from({ length: 10 }, (_, i) => file({ name: `f${i}.zip`, content_type: "application/zip", bytes: 10 * MIB }));
    expect((await fileTicket(siteId, ticket({ files }))).uploads).toHaveLength(10);
    expect((await fileTicket(siteId, ticket({ files: [file({ name: "empty.txt", content_type: "text/plain", bytes: 0 })] }))).uploads).toHaveLength(1);
  });

  test("every listed media type is accepted", async () => {
    const types = [
      "image/png",
      "image/jpeg",
      "image/gif",
      "image/webp",
      "application/pdf",
      "text/plain",
      "text/csv",
      "application/zip",
      "application/msword",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ];
    for (const [index, type] of types.entries()) {
      expect((await postTicket(siteId, ticket({ files: [file({ name: `f${index}`, content_type: type, bytes: 10 })] }))).status).toBe(201);
    }
  });

  test("trims and stores the text fields", async () => {
    const site = await createSite();
    const reply = await fileTicket(site.id, ticket({ subject: "  Padded  ", name: " Ada ", body: "  hi  " }));
    expect(reply.subject).toBe("Padded");
    const row = await (await db()).ticket.findFirstOrThrow({ where: { siteId: site.id } });
    expect({ name: row.name, body: row.body, origin: row.origin }).toEqual({ name: "Ada", body: "hi", origin: ORIGIN });
  });

  test("carries CORS for the allowed origin", async () => {
    const response = await postTicket(siteId, ticket(), { origin: OTHER_ORIGIN });
    expect(response.headers.get("access-control-allow-origin")).toBe(OTHER_ORIGIN);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});

describe("who may file", () => {
  test("an unknown site is 404 site_not_found", async () => {
    expectError(await postTicket("no-such-site", ticket(), { origin: null }), 404, "site_not_found");
  });

  test.each([
    ["missing", null],
    ["other", "https://evil.example"],
    ["trailing slash", `${ORIGIN}/`],
  ])("origin %s is 403 origin_not_allowed and stores nothing", async (_name, origin) => {
    const before = await rowCounts();
    expectError(await postTicket(siteId, ticket(), { origin }), 403, "origin_not_allowed");
    expect(await rowCounts()).toEqual(before);
  });

  test("a preflight allows the Idempotency-Key header", async () => {
    const response = await api.options(`/api/v1/chat/widget/${siteId}/tickets`, { origin: ORIGIN });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
  });
});

describe("bad input changes nothing", () => {
  test.each([
    ["unknown field", ticket({ extra: 1 })],
    ["no email", { subject: "s", body: "b" }],
    ["no subject", { email: "a@example.com", body: "b" }],
    ["no body", { email: "a@example.com", subject: "s" }],
    ["invalid email", ticket({ email: "nope" })],
    ["email over 254", ticket({ email: `${"a".repeat(250)}@example.com` })],
    ["name over 80", ticket({ name: "n".repeat(81) })],
    ["name with a control character", ticket({ name: "Ada\u0007" })],
    ["subject over 120", ticket({ subject: "s".repeat(121) })],
    ["blank subject", ticket({ subject: "   " })],
    ["body over 8000", ticket({ body: "b".repeat(8001) })],
    ["blank body", ticket({ body: " " })],
    ["U+0000 in body", ticket({ body: "a\u0000b" })],
    ["unpaired surrogate in subject", ticket({ subject: "a\uD800" })],
    ["unknown priority", ticket({ priority: "critical" })],
    ["priority of the wrong type", ticket({ priority: 1 })],
    ["files not an array", ticket({ files: file() })],
    ["11 files", ticket({ files: Array.from({ length: 11 }, () => file()) })],
    ["a file over 10 MiB", ticket({ files: [file({ bytes: 10 * MIB + 1 })] })],
    ["negative bytes", ticket({ files: [file({ bytes: -1 })] })],
    ["fractional bytes", ticket({ files: [file({ bytes: 1.5 })] })],
    ["bytes as a string", ticket({ files: [file({ bytes: "10" })] })],
    ["an unlisted media type", ticket({ files: [file({ content_type: "image/svg+xml" })] })],
    ["a media type with parameters", ticket({ files: [file({ content_type: "text/plain; charset=utf-8" })] })],
    ["a file with an unknown field", ticket({ files: [{ ...file(), path: "/etc/passwd" }] })],
    ["a file without a name", ticket({ files: [{ content_type: "image/png", bytes: 1 }] })],
    ["a file without bytes", ticket({ files: [{ name: "a.png", content_type: "image/png" }] })],
    ["a file name over 255", ticket({ files: [file({ name: `${"n".repeat(252)}.png` })] })],
    ["a file name with a bidi override", ticket({ files: [file({ name: "gnp.\u202Eexe" })] })],
    ["an array", [ticket()]],
  ])("%s → 400 invalid_request", async (_name, body) => {
    const before = await rowCounts();
    const response = await postTicket(siteId, body);
    expectError(response, 400, "invalid_request");
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(await rowCounts()).toEqual(before);
  });

  test("validation failures name the fields", async () => {
    const response = await postTicket(siteId, ticket({ files: [file({ bytes: -1, extra: true })] }));
    expect(response.json.result.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "files.0.bytes" }), { path: "files.0.extra", problem: "unknown field" }]),
    );
  });
});

describe("Idempotency-Key", () => {
  test("a replay returns the original reply and stores and draws nothing", async () => {
    const site = await createSite();
    const body = ticket({ files: [file()] });
    const first = await postTicket(site.id, body, { key: "order-42" });
    expect(first.status).toBe(201);
    const before = await rowCounts();
    const usage = await dailyUsage(await db(), site.inbox_id);
    const replay = await postTicket(site.id, body, { key: "order-42" });
    expect(replay.status).toBe(201);
    expect(replay.json.result.number).toBe(first.json.result.number);
    expect(replay.json.result.subject).toBe(first.json.result.subject);
    expect(replay.json.result.uploads.map(({ attachment_id, name }: { attachment_id: string; name: string }) => ({ attachment_id, name }))).toEqual(
      first.json.result.uploads.map(({ attachment_id, name }: { attachment_id: string; name: string }) => ({ attachment_id, name })),
    );
    expect(replay.json.result.uploads[0].upload_url).toMatch(/^http/);
    expect(await rowCounts()).toEqual(before);
    expect(await dailyUsage(await db(), site.inbox_id)).toBe(usage);
    expect((await fileTicket(site.id)).number).toBe(first.json.result.number + 1);
  });

  test("a replay still answers once the daily allowance has run out", async () => {
    const site = await createSite({ daily_allowance: 1 });
    const first = await postTicket(site.id, ticket(), { key: "before-the-limit" });
    expectError(await postTicket(site.id, ticket()), 429, "daily_allowance_exhausted");
    const replay = await postTicket(site.id, ticket(), { key: "before-the-limit" });
    expect(replay.status).toBe(201);
    expect(replay.json.result.number).toBe(first.json.result.number);
  });

  test("the same request with defaults spelled out or extra spaces is the same request", async () => {
    const first = await postTicket(siteId, ticket(), { key: "same-meaning" });
    const replay = await postTicket(siteId, ticket({ priority: "normal", subject: " My order " }), { key: "same-meaning" });
    expect(replay.json.result.number).toBe(first.json.result.number);
  });

  test("a different body under the same key is 409 idempotency_conflict and stores nothing", async () => {
    await fileTicket(siteId, ticket(), { key: "conflict-1" });
    const before = await rowCounts();
    expectError(await postTicket(siteId, ticket({ body: "Something else" }), { key: "conflict-1" }), 409, "idempotency_conflict");
    expect(await rowCounts()).toEqual(before);
  });

  test("keys are per site", async () => {
    const other = await createSite();
    const mine = await fileTicket(siteId, ticket(), { key: "shared-key" });
    const theirs = await fileTicket(other.id, ticket({ body: "different" }), { key: "shared-key" });
    expect(theirs.number).toBe(1);
    expect(mine.number).toBeGreaterThanOrEqual(1);
  });

  test("after 24 h a key is new again", async () => {
    const site = await createSite();
    await fileTicket(site.id, ticket(), { key: "old-key" });
    await (await db()).ticketIdempotencyKey.updateMany({
      where: { siteId: site.id, key: "old-key" },
      data: { createdAt: new Date(Date.now() - 24 * 60 * 60 * 1000 - 1000) },
    });
    expect((await fileTicket(site.id, ticket({ body: "a new one" }), { key: "old-key" })).number).toBe(2);
  });

  test("concurrent requests with one new key file one ticket and all get its reply", async () => {
    const site = await createSite();
    const replies = await Promise.all(Array.from({ length: 8 }, () => postTicket(site.id, ticket(), { key: "racing" })));
    expect(replies.map((reply) => reply.status)).toEqual(Array(8).fill(201));
    expect(new Set(replies.map((reply) => reply.json.result.number))).toEqual(new Set([1]));
    expect(await (await db()).ticket.count({ where: { siteId: site.id } })).toBe(1);
    expect(await dailyUsage(await db(), site.inbox_id)).toBe(1);
  });

  test.each([
    ["over 100 characters", "k".repeat(101)],
    ["empty", ""],
    ["with a space inside", "a b"],
    ["non-ASCII", Buffer.from("clé", "utf8").toString("latin1")],
  ])("a key %s → 400 invalid_request", async (_name, key) => {
    const before = await rowCounts();
    expectError(await postTicket(siteId, ticket(), { key }), 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
  });

  test("a key of exactly 100 characters is accepted", async () => {
    expect((await postTicket(siteId, ticket(), { key: "k".repeat(100) })).status).toBe(201);
  });
});

describe("the operator's ticket list", () => {
  test("lists tickets with their attachments, none uploaded yet", async () => {
    const site = await createSite();
    const reply = await fileTicket(site.id, ticket({ name: "Ada", files: [file(), file({ name: "notes.txt", content_type: "text/plain", bytes: 3 })] }));
    const [listed] = await listTickets(site.id);
    expect(listed).toMatchObject({
      number: reply.number,
      site_id: site.id,
      inbox_id: site.inbox_id,
      origin: ORIGIN,
      name: "Ada",
      email: "ada@example.com",
      subject: "My order",
      body: "It has not arrived.",
      priority: "normal",
    });
    expect(listed!.attachments).toEqual([
      { id: reply.uploads[0]!.attachment_id, name: "photo.png", content_type: "image/png", bytes: file().bytes, uploaded: false, uploaded_at: null },
      { id: reply.uploads[1]!.attachment_id, name: "notes.txt", content_type: "text/plain", bytes: 3, uploaded: false, uploaded_at: null },
    ]);
  });

  test("an unknown site is 404, a missing operator token 401", async () => {
    expectError(await api.get("/api/v1/admin/tickets?site=nope", { admin: true }), 404, "site_not_found");
    expectError(await api.get(`/api/v1/admin/tickets?site=${siteId}`), 401, "unauthorized");
    expectError(await api.get("/api/v1/admin/tickets", { admin: true }), 400, "invalid_request");
  });
});

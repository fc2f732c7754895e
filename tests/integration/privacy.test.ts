import { readFile, stat } from "node:fs/promises";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as adminExport } from "../../app/api/v1/admin/privacy/export/route";
import { POST as inboxExport } from "../../app/api/v1/inbox/privacy/export/route";
import { db } from "../../lib/db/client";
import { storedFilePath } from "../../lib/uploads/local-storage";
import { eventData } from "../../lib/webhooks/event-data";
import { api, BASE_URL } from "../support/api";
import { TEST_ADMIN_TOKEN } from "../support/database-per-file";
import { expectError } from "../support/expectations";
import { createMember, createSite } from "../support/fixtures";
import { as, createStaff, INBOX_ORIGIN, type Staff } from "../support/inbox";
import { seedPerson, s3ObjectExists, startS3Emulator, tracesOf } from "../support/personal-data";
import { rowCounts } from "../support/row-counts";

// Privacy requests (decisions.md, round 3, "Trust"): export and erase one person's data by email,
// user id or visitor id, from the operator API and the owners' inbox; files on disk and in S3 (s3rver).

const s3 = await startS3Emulator("parley-privacy");
afterAll(() => s3.stop());

let site: { id: string; inbox_id: string };
let seeds: { siteId: string; inboxId: string; memberId: string; webhookId: string };
let owner: Staff;
let agent: Staff;

beforeAll(async () => {
  site = await createSite();
  const member = await createMember({ picture: false });
  const webhook = await (await db()).webhook.create({ data: { id: "wh_privacy", url: "https://hooks.example/in", events: ["conversation.started"], secret: "whsec_test" } });
  seeds = { siteId: site.id, inboxId: site.inbox_id, memberId: member.id, webhookId: webhook.id };
  owner = await createStaff("owner");
  agent = await createStaff("agent");
});

const erase = (body: unknown, admin: boolean | string = true) => api.post("/api/v1/admin/privacy/erase", { admin, body });

async function exportZip(body: unknown, route: "admin" | "inbox" = "admin", staff: Staff = owner) {
  const headers: Record<string, string> =
    route === "admin" ? { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` } : { Cookie: staff.cookie, Origin: INBOX_ORIGIN };
  const request = new Request(`${BASE_URL}/api/v1/${route}/privacy/export`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return (route === "admin" ? adminExport : inboxExport)(request, { params: Promise.resolve({}) });
}

async function unzipped(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/zip");
  expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="parley-export-/);
  const entries = unzipSync(new Uint8Array(await response.arrayBuffer()));
  const json = (name: string) => JSON.parse(strFromU8(entries[`${name}.json`]!)) as Record<string, unknown>[];
  const files = Object.entries(entries).filter(([name]) => name.startsWith("files/"));
  return { entries, json, files, text: Object.values(entries).map((bytes) => Buffer.from(bytes).toString("latin1")).join("\n") };
}

const fileOnDisk = (key: string) => stat(storedFilePath(key)).then(() => true, () => false);

describe("export", () => {
  test("holds every row and file of one person and nothing of another", async () => {
    const alice = await seedPerson(s3, { ...seeds, name: "Alice" });
    const bob = await seedPerson(s3, { ...seeds, name: "Bob" });
    const zip = await unzipped(await exportZip({ email: "ALICE@example.com" }));
    expect(zip.json("request")).toMatchObject({ email: "alice@example.com", exported_at: expect.any(String) });
    expect(zip.json("conversations").map((row) => row.id)).toEqual([alice.conversationId]);
    expect(zip.json("messages")).toHaveLength(2);
    expect(zip.json("message_attachments")).toHaveLength(2);
    expect(zip.json("ratings")).toEqual([expect.objectContaining({ comment: "Alice liked it" })]);
    expect(zip.json("tickets").map((row) => row.id)).toEqual([alice.ticketId]);
    expect(zip.json("ticket_replies")).toHaveLength(1);
    expect(zip.json("ticket_attachments")).toHaveLength(1);
    expect(zip.json("page_views").map((row) => row.visitor_id)).toEqual([alice.browserVisitorId, alice.browserVisitorId]);
    expect(zip.json("emails").map((row) => row.recipient)).toEqual([alice.email]);
    expect(zip.json("webhook_deliveries")).toHaveLength(1);
    // The bytes of all three files: on disk, in S3 for the conversation and the ticket.
    expect(zip.files.map(([, bytes]) => Buffer.from(bytes).toString()).sort()).toEqual([...alice.files.values()].map(String).sort());
    for (const trace of [bob.email, bob.conversationId, bob.ticketId, bob.browserVisitorId, "Bob"]) expect(zip.text).not.toContain(trace);
  });

  test("by visitor id on a site: that browser's conversation and page views; by user id: that user's conversation", async () => {
    const carol = await seedPerson(s3, { ...seeds, name: "Carol" });
    const byVisitor = await unzipped(await exportZip({ visitor_id: carol.browserVisitorId, site: site.id }));
    expect(byVisitor.json("conversations").map((row) => row.id)).toEqual([carol.conversationId]);
    expect(byVisitor.json("page_views")).toHaveLength(2);
    expect(byVisitor.json("tickets")).toEqual([]); // tickets are matched by email only
    const byUser = await unzipped(await exportZip({ user_id: carol.userId, site: site.id }));
    expect(byUser.json("conversations").map((row) => row.id)).toEqual([carol.conversationId]);
    const nobody = await unzipped(await exportZip({ user_id: carol.userId, site: (await createSite()).id }));
    expect(nobody.json("conversations")).toEqual([]);
  });

  test("owners export from the inbox; agents may not (403), nor anyone without a session (401)", async () => {
    const dave = await seedPerson(s3, { ...seeds, name: "Dave" });
    const zip = await unzipped(await exportZip({ email: dave.email }, "inbox", owner));
    expect(zip.json("conversations").map((row) => row.id)).toEqual([dave.conversationId]);
    expect((await exportZip({ email: dave.email }, "inbox", agent)).status).toBe(403);
    expect((await exportZip({ email: dave.email }, "inbox", { ...owner, cookie: "parley_session=ps_nope" })).status).toBe(401);
  });
});

describe("erase", () => {
  test("leaves no trace of the person (rows, bytes on disk and in S3, deliveries, outbox), keeps the other's, and says so once to webhooks", async () => {
    const erin = await seedPerson(s3, { ...seeds, name: "Erin" });
    const frank = await seedPerson(s3, { ...seeds, name: "Frank" });
    const frankBefore = await tracesOf(frank);
    const response = await erase({ email: "erin@EXAMPLE.com" });
    expect(response.status).toBe(200);
    expect(response.json.result).toEqual({
      conversations: 1,
      messages: 2,
      ratings: 1,
      tickets: 1,
      ticket_replies: 1,
      attachments: 3,
      page_views: 2,
      emails: 1,
      webhook_deliveries: 1,
      audit_events: 0,
    });
    expect(Object.values(await tracesOf(erin)).every((count) => count === 0)).toBe(true);
    expect(await fileOnDisk(erin.localKey)).toBe(false);
    expect(await s3ObjectExists(s3, erin.s3Key)).toBe(false);
    expect(await s3ObjectExists(s3, erin.ticketKey)).toBe(false);
    // Frank keeps everything.
    expect(await tracesOf(frank)).toEqual(frankBefore);
    expect(await readFile(storedFilePath(frank.localKey), "utf8")).toBe(frank.files.get(frank.localKey)!.toString());
    expect(await s3ObjectExists(s3, frank.s3Key)).toBe(true);
    // privacy.erased: the kind and the counts, never the person.
    const prisma = await db();
    const [event] = await prisma.notificationEvent.findMany({ where: { type: "privacy.erased" }, orderBy: { createdAt: "desc" }, take: 1 });
    const data = await eventData("privacy.erased", event!.subjectId);
    expect(data).toEqual({ kind: "email", site_id: null, counts: response.json.result, erased_at: expect.any(String) });
    expect(JSON.stringify(await prisma.privacyErasure.findMany())).not.toContain("erin");
    // Audited, with the kind and counts: the log does not keep what was erased.
    const audited = await prisma.auditEvent.findMany({ where: { action: "privacy.erase" } });
    expect(audited).toEqual([expect.objectContaining({ actor: "operator", target: "privacy:email", details: { kind: "email", counts: response.json.result } })]);
    expect(JSON.stringify(audited)).not.toContain("erin");
  });

  test("is idempotent: the same request again answers zeros and changes nothing", async () => {
    const gina = await seedPerson(s3, { ...seeds, name: "Gina" });
    expect((await erase({ visitor_id: gina.browserVisitorId, site: site.id })).json.result.conversations).toBe(1);
    const before = await rowCounts();
    const again = await erase({ visitor_id: gina.browserVisitorId, site: site.id });
    expect(again.status).toBe(200);
    expect(Object.values(again.json.result).every((count) => count === 0)).toBe(true);
    const after = await rowCounts();
    // Only the record of the request, its webhook event and its audit row are new.
    const requestRecords = { privacy_erasures: 0, notification_events: 0, audit_events: 0 };
    expect({ ...after, ...requestRecords }).toEqual({ ...before, ...requestRecords });
    expect(after.audit_events).toBe(before.audit_events! + 1);
  });

  test("by user id on a site erases that user's conversation and its files; the ticket filed by email stays", async () => {
    const hank = await seedPerson(s3, { ...seeds, name: "Hank" });
    const response = await erase({ user_id: hank.userId, site: site.id });
    expect(response.json.result).toMatchObject({ conversations: 1, messages: 2, attachments: 2, tickets: 0, page_views: 2 });
    expect(await fileOnDisk(hank.localKey)).toBe(false);
    expect(await s3ObjectExists(s3, hank.s3Key)).toBe(false);
    expect(await s3ObjectExists(s3, hank.ticketKey)).toBe(true);
  });

  test("owners erase from the inbox; agents get 403, no session 401", async () => {
    const ivy = await seedPerson(s3, { ...seeds, name: "Ivy" });
    expectError(await api.post("/api/v1/inbox/privacy/erase", as(agent, { body: { email: ivy.email } })), 403, "forbidden");
    expectError(await api.post("/api/v1/inbox/privacy/erase", as(null, { body: { email: ivy.email } })), 401, "unauthorized");
    expect((await tracesOf(ivy)).conversations).toBe(1);
    const response = await api.post("/api/v1/inbox/privacy/erase", as(owner, { body: { email: ivy.email } }));
    expect(response.status).toBe(200);
    expect(response.json.result.conversations).toBe(1);
  });
});

describe("audit rows about an email", () => {
  test("a failed sign-in with the address is exported, and erased as a redaction that keeps who, what, when and where", async () => {
    const prisma = await db();
    const address = "Leo.Stranger@example.com";
    const signIn = await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: address, password: "a password" } });
    expect(signIn.status).toBe(401);
    const other = await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: "someone.else@example.com", password: "a password" } });
    expect(other.status).toBe(401);
    const [row] = await prisma.auditEvent.findMany({ where: { action: "staff.sign_in_failed" }, orderBy: { at: "asc" }, take: 1 });
    expect(row!.target).toMatch(/^email_hash:[\w-]{22}$/);

    const zip = await unzipped(await exportZip({ email: "leo.stranger@EXAMPLE.com" }));
    expect(zip.json("audit_events")).toEqual([expect.objectContaining({ id: row!.id, action: "staff.sign_in_failed", target: row!.target })]);

    const response = await erase({ email: address });
    expect(response.json.result.audit_events).toBe(1);
    const redacted = await prisma.auditEvent.findUniqueOrThrow({ where: { id: row!.id } });
    expect(redacted).toMatchObject({ action: row!.action, actor: row!.actor, at: row!.at, ip: row!.ip, target: "redacted", details: { ...(row!.details as object), redacted: true } });
    // The other address's row is untouched; a second erasure finds nothing; the export finds nothing.
    expect(await prisma.auditEvent.count({ where: { action: "staff.sign_in_failed", target: { startsWith: "email_hash:" } } })).toBe(1);
    expect((await erase({ email: address })).json.result.audit_events).toBe(0);
    expect((await unzipped(await exportZip({ email: address }))).json("audit_events")).toEqual([]);
    // Outside an erasure the row is as append-only as ever.
    await expect(prisma.$executeRawUnsafe(`UPDATE audit_events SET target = 'x', details = '{"redacted": true}' WHERE id = '${row!.id}'`)).rejects.toThrow(/append-only/);
  });
});

describe("refused requests change nothing", () => {
  test.each([
    [{}, "email"],
    [{ email: "a@example.com", user_id: "u1", site: "s" }, "email"],
    [{ email: "a@example.com", site: "s" }, "site"],
    [{ user_id: "u1" }, "site"],
    [{ visitor_id: "v1" }, "site"],
    [{ email: "not an email" }, "email"],
    [{ email: "a@example.com", phone: "1" }, undefined],
    [{ user_id: "", site: "s" }, "user_id"],
  ])("%j → 400 invalid_request", async (body, field) => {
    await seedPerson(s3, { ...seeds, name: "Judy" });
    const before = await rowCounts();
    for (const path of ["/api/v1/admin/privacy/erase", "/api/v1/admin/privacy/export"]) {
      const response = await api.post(path, { admin: true, body });
      expectError(response, 400, "invalid_request");
      if (field) expect(JSON.stringify(response.json)).toContain(field);
    }
    expect(await rowCounts()).toEqual(before);
  });

  test("an unknown site is 404; no or a wrong operator token is 401", async () => {
    const kim = await seedPerson(s3, { ...seeds, name: "Kim" });
    const before = await rowCounts();
    expectError(await erase({ visitor_id: kim.browserVisitorId, site: "no-such-site" }), 404, "site_not_found");
    expectError(await erase({ email: kim.email }, false), 401, "unauthorized");
    expectError(await erase({ email: kim.email }, "wrong-token-0123456789"), 401, "unauthorized");
    expectError(await api.post("/api/v1/admin/privacy/export", { body: { email: kim.email } }), 401, "unauthorized");
    expect(await rowCounts()).toEqual(before);
    expect(await s3ObjectExists(s3, kim.s3Key)).toBe(true);
  });
});

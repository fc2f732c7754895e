import { stat } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "../../lib/db/client";
import { startNotificationWorker } from "../../lib/notifications/worker";
import { JOB_HANDLERS } from "../../lib/notifications/job-handlers";
import { QUEUES } from "../../lib/jobs/queue";
import { BATCH_SIZE, pruneExpiredTokens, pruneLogs, runDailyRetention, runRetention, TOKEN_GRACE_DAYS } from "../../lib/privacy/retention";
import { storedFilePath } from "../../lib/uploads/local-storage";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createMember, createSite, openConversation, ORIGIN, visitor } from "../support/fixtures";
import { as, createStaff } from "../support/inbox";
import { seedPerson, s3ObjectExists, startS3Emulator, tracesOf, type Person } from "../support/personal-data";
import { rowCounts } from "../support/row-counts";

// Retention (decisions.md, round 3, "Trust"): a site's `retention_days` erases closed conversations
// and tickets older than that with their files; LOG_RETENTION_DAYS prunes the logs.

const s3 = await startS3Emulator("parley-retention");
afterAll(() => s3.stop());

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const erased = async (person: Person) => Object.values(await tracesOf(person)).every((count) => count === 0);
const fileOnDisk = (key: string) => stat(storedFilePath(key)).then(() => true, () => false);

let memberId: string;
let webhookId: string;
beforeAll(async () => {
  memberId = (await createMember({ picture: false })).id;
  webhookId = (await (await db()).webhook.create({ data: { id: `wh_${randomUUID()}`, url: "https://hooks.example/in", events: ["conversation.started"], secret: "whsec_test" } })).id;
});

async function siteKeeping(retention_days: number | null) {
  const site = await createSite();
  const patched = await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { retention_days } });
  expect(patched.status).toBe(200);
  expect(patched.json.result.retention_days).toBe(retention_days);
  return { siteId: site.id, inboxId: site.inbox_id, memberId, webhookId };
}

// First: the later tests seed old rows of their own.
describe("log pruning after LOG_RETENTION_DAYS", () => {
  test("deletes delivery logs, emails and page views older than that, never work still pending", async () => {
    const prisma = await db();
    const site = await createSite();
    const row = (age: number) => ({ createdAt: daysAgo(age) });
    const email = (age: number, status: string) => ({
      id: `eml_${randomUUID()}`,
      kind: "visitor_follow_up",
      recipient: "x@example.com",
      recipientKey: "x@example.com",
      subject: "s",
      textBody: "t",
      htmlBody: "h",
      status,
      ...row(age),
    });
    const delivery = (age: number, status: string) => ({ id: `whd_${randomUUID()}`, webhookId, eventId: `evt_${randomUUID()}`, type: "conversation.started", payload: "{}", status, ...row(age) });
    const view = (age: number) => ({ id: `pv_${randomUUID()}`, siteId: site.id, origin: "https://shop.example", pageUrl: "https://shop.example/", ...row(age) });
    const oldEmail = email(91, "sent");
    const oldSuppressed = email(91, "suppressed");
    const pendingEmail = email(120, "pending");
    const newEmail = email(89, "sent");
    const newSuppressed = email(89, "suppressed");
    const oldDelivery = delivery(100, "succeeded");
    const pendingDelivery = delivery(100, "pending");
    const newDelivery = delivery(1, "failed");
    const oldView = view(95);
    const newView = view(80);
    const emails = [oldEmail, oldSuppressed, pendingEmail, newEmail, newSuppressed];
    await prisma.email.createMany({ data: emails });
    await prisma.webhookDelivery.createMany({ data: [oldDelivery, pendingDelivery, newDelivery] });
    await prisma.pageView.createMany({ data: [oldView, newView] });

    expect(await pruneLogs()).toEqual({ webhook_deliveries: 1, emails: 2, page_views: 1, unsubscribe_links: 0, suppressed_addresses: 0 });
    // Of this test's rows (the others' seeded rows are recent).
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    const left = async () => ({
      emails: ids(await prisma.email.findMany({ where: { id: { in: emails.map((r) => r.id) } }, select: { id: true } })),
      deliveries: ids(await prisma.webhookDelivery.findMany({ where: { id: { in: [oldDelivery, pendingDelivery, newDelivery].map((r) => r.id) } }, select: { id: true } })),
      views: ids(await prisma.pageView.findMany({ where: { id: { in: [oldView, newView].map((r) => r.id) } }, select: { id: true } })),
    });
    expect(await left()).toEqual({
      emails: [pendingEmail.id, newEmail.id, newSuppressed.id].sort(),
      deliveries: [pendingDelivery.id, newDelivery.id].sort(),
      views: [newView.id],
    });
    // A shorter period prunes more.
    expect(await pruneLogs(new Date(), 30)).toEqual({ webhook_deliveries: 0, emails: 2, page_views: 1, unsubscribe_links: 0, suppressed_addresses: 0 });
  });

  test(`deletes visitor tokens expired more than ${TOKEN_GRACE_DAYS} days ago, in batches; within the grace one still says token_expired`, async () => {
    const prisma = await db();
    const started = await openConversation();
    const { conversationId } = started;
    const token = (expiredDaysAgo: number) => ({ id: randomUUID(), hash: randomUUID(), conversationId, origin: ORIGIN, expiresAt: daysAgo(expiredDaysAgo) });
    const old = Array.from({ length: BATCH_SIZE + 3 }, () => token(TOKEN_GRACE_DAYS + 1));
    await prisma.visitorToken.createMany({ data: old });
    // The visitor's own token, expired within the grace.
    await prisma.visitorToken.updateMany({ where: { conversationId, id: { notIn: old.map((t) => t.id) } }, data: { expiresAt: daysAgo(TOKEN_GRACE_DAYS - 1) } });
    const read = () => api.get("/api/v1/chat/visitor/messages", visitor(started));

    expect(await pruneExpiredTokens()).toBe(old.length);
    expect(await prisma.visitorToken.count({ where: { conversationId } })).toBe(1);
    expectError(await read(), 401, "token_expired");
    expect(await pruneExpiredTokens()).toBe(0);
    // Past the grace it goes too, and answers as an unknown token.
    await prisma.visitorToken.updateMany({ where: { conversationId }, data: { expiresAt: daysAgo(TOKEN_GRACE_DAYS + 1) } });
    expect(await pruneExpiredTokens()).toBe(1);
    expectError(await read(), 401, "unauthorized");
  });
});

describe("audit pruning after AUDIT_RETENTION_DAYS (default 365)", () => {
  test("the daily run deletes older audit events, keeps recent ones, and an ordinary DELETE still fails", async () => {
    const prisma = await db();
    await prisma.$executeRawUnsafe(
      `INSERT INTO audit_events (at, actor, action) VALUES (now() - interval '366 days', 'operator', 'retention.old'), (now() - interval '366 days', 'operator', 'retention.old'), (now() - interval '364 days', 'operator', 'retention.recent')`,
    );
    expect((await runRetention()).audit_events).toBe(2);
    expect(await prisma.auditEvent.count({ where: { action: "retention.old" } })).toBe(0);
    expect(await prisma.auditEvent.count({ where: { action: "retention.recent" } })).toBe(1);
    await expect(prisma.$executeRawUnsafe(`DELETE FROM audit_events WHERE action = 'retention.recent'`)).rejects.toThrow(/append-only/);
    expect(await prisma.auditEvent.count({ where: { action: "retention.recent" } })).toBe(1);
  });
});

describe("retention_days, a site setting", () => {
  test("null by default; set and cleared by the operator and by owners; 1..3650 or 400 changing nothing", async () => {
    const site = await createSite();
    expect((site as unknown as { retention_days: unknown }).retention_days).toBeNull();
    const owner = await createStaff("owner");
    const agent = await createStaff("agent");
    const patched = await api.patch(`/api/v1/inbox/sites/${site.id}`, as(owner, { body: { retention_days: 30 } }));
    expect(patched.json.result.retention_days).toBe(30);
    expectError(await api.patch(`/api/v1/inbox/sites/${site.id}`, as(agent, { body: { retention_days: 5 } })), 403, "forbidden");
    const before = await rowCounts();
    for (const retention_days of [0, 3651, 2.5, "30", -1]) {
      const response = await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { retention_days } });
      expectError(response, 400, "invalid_request");
      expect(JSON.stringify(response.json)).toContain("retention_days");
    }
    expect(await rowCounts()).toEqual(before);
    expect((await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { retention_days: null } })).json.result.retention_days).toBeNull();
  });
});

describe("the daily retention run", () => {
  test("erases only closed conversations and tickets older than their site's retention, with their files", async () => {
    const keeping30 = await siteKeeping(30);
    const keepingAll = await siteKeeping(null);
    const old = await seedPerson(s3, { ...keeping30, name: "Olga", closedAt: daysAgo(40) });
    const recent = await seedPerson(s3, { ...keeping30, name: "Rita", closedAt: daysAgo(10) });
    const openOld = await seedPerson(s3, { ...keeping30, name: "Otto", closedAt: daysAgo(40) });
    await (await db()).conversation.update({ where: { id: openOld.conversationId }, data: { status: "open", closedAt: null } });
    const elsewhere = await seedPerson(s3, { ...keepingAll, name: "Elsa", closedAt: daysAgo(400) });
    const repliedLately = await seedPerson(s3, { ...keeping30, name: "Lara", closedAt: daysAgo(40) });
    await (await db()).ticketReply.create({ data: { id: `rep_${randomUUID()}`, ticketId: repliedLately.ticketId, memberId, body: "Any news?", createdAt: daysAgo(2) } });

    const counts = await runRetention();
    expect(counts).toMatchObject({ conversations: 2, tickets: 2 }); // Olga's and Lara's conversations; Olga's and Otto's tickets
    expect((await tracesOf(old)).conversations).toBe(0);
    expect((await tracesOf(old)).tickets).toBe(0);
    expect(await fileOnDisk(old.localKey)).toBe(false);
    expect(await s3ObjectExists(s3, old.s3Key)).toBe(false);
    expect(await s3ObjectExists(s3, old.ticketKey)).toBe(false);
    expect(await tracesOf(recent)).toMatchObject({ conversations: 1, messages: 2, tickets: 1 });
    expect(await fileOnDisk(recent.localKey)).toBe(true);
    expect(await tracesOf(openOld)).toMatchObject({ conversations: 1, messages: 2, message_attachments: 2 });
    expect(await erased(elsewhere)).toBe(false);
    expect(await tracesOf(elsewhere)).toMatchObject({ conversations: 1, tickets: 1 });
    expect(await tracesOf(repliedLately)).toMatchObject({ conversations: 0, tickets: 1, ticket_replies: 2 });
    expect(await s3ObjectExists(s3, repliedLately.ticketKey)).toBe(true);
    // A second run finds nothing more.
    expect(await runRetention()).toMatchObject({ conversations: 0, tickets: 0 });
  });

  test(`works through more than one batch (${BATCH_SIZE} rows each)`, async () => {
    const site = await siteKeeping(1);
    const total = BATCH_SIZE * 2 + 7;
    await (await db()).conversation.createMany({
      data: Array.from({ length: total }, () => ({
        id: randomUUID(),
        siteId: site.siteId,
        inboxId: site.inboxId,
        origin: "https://shop.example",
        visitorId: `v_${randomUUID()}`,
        status: "closed",
        closedAt: daysAgo(3),
      })),
    });
    expect((await runRetention()).conversations).toBe(total);
    expect(await (await db()).conversation.count({ where: { siteId: site.siteId } })).toBe(0);
  });

  test("is a job of the queue that each worker asks for, run once per UTC day however many instances ask", async () => {
    expect(typeof JOB_HANDLERS[QUEUES.retention]).toBe("function");
    const prisma = await db();
    const today = new Date().toISOString().slice(0, 10);
    const worker = await startNotificationWorker({ timings: { retentionFirstAskMs: 0 } });
    try {
      await vi.waitFor(async () => expect(await prisma.setting.findUnique({ where: { key: "retention_last_day" } })).toMatchObject({ value: today }), {
        timeout: 60_000,
        interval: 250,
      });
    } finally {
      await worker.stop();
    }
    // Another instance's job the same day does nothing; tomorrow's runs.
    expect(await runDailyRetention()).toBeNull();
    expect(await runDailyRetention(new Date(Date.now() + DAY))).toMatchObject({ conversations: 0 });
  });
});

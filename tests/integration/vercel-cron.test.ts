import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "../../lib/db/client";
import { notificationsRunning } from "../../lib/prepare-service";
import { api } from "../support/api";
import { openConversation } from "../support/fixtures";
import { SmtpCapture } from "../support/smtp-capture";
import { fileTicket, ticket } from "../support/tickets";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// Vercel Cron's route (GET /api/v1/cron/dispatch) against a real webhook receiver and a real SMTP
// server, with no notification worker running anywhere: only the cron delivers here.

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on";
const CRON_SECRET = "cron-secret-0123456789abcdef";
const smtp = new SmtpCapture();
let receiver: WebhookReceiver;

beforeAll(async () => {
  await smtp.start();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Acme Support <support@acme.example>";
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await receiver.stop();
  await smtp.stop();
});

const cron = (authorization?: string) =>
  api.get("/api/v1/cron/dispatch", { headers: authorization === undefined ? {} : { Authorization: authorization } });
const pendingEvents = async () => (await db()).notificationEvent.count();

describe("without CRON_SECRET", () => {
  test("the cron route refuses every request with 401, whatever it presents", async () => {
    await openConversation({ body: "waiting" });
    const before = await pendingEvents();
    expect(before).toBeGreaterThan(0);
    for (const authorization of [undefined, "Bearer ", "Bearer undefined", `Bearer ${CRON_SECRET}`]) {
      const response = await cron(authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.json.result.code).toBe("unauthorized");
    }
    expect(await pendingEvents()).toBe(before);
  });
});

describe("with CRON_SECRET", () => {
  beforeAll(() => {
    process.env.CRON_SECRET = CRON_SECRET;
    vi.resetModules(); // lib/core/env.ts parses the environment once per module instance
  });

  test("a missing, wrong or operator bearer is 401 and delivers nothing", async () => {
    const before = await pendingEvents();
    expect(before).toBeGreaterThan(0);
    for (const authorization of [undefined, `Bearer ${CRON_SECRET}x`, `Bearer ${CRON_SECRET.slice(0, -1)}`, `bearer ${CRON_SECRET}`, CRON_SECRET, "Bearer test-admin-token-0123456789abcdef"]) {
      const response = await cron(authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.json.result.code).toBe("unauthorized");
    }
    expect(await pendingEvents()).toBe(before);
  });

  // Before any call that queues the retention job: its first run here is the one measured.
  test("the cron runs the daily retention too: a closed conversation past its site's retention_days is erased", async () => {
    const prisma = await db();
    const old = await openConversation({ body: "Erase me later" });
    const kept = await openConversation({ body: "Still open" });
    for (const { site } of [old, kept]) {
      expect((await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { retention_days: 1 } })).status).toBe(200);
    }
    await prisma.conversation.update({ where: { id: old.conversationId }, data: { status: "closed", closedAt: new Date(Date.now() - 3 * 86_400_000) } });
    await prisma.setting.deleteMany({ where: { key: "retention_last_day" } }); // today unclaimed, whatever ran before
    expect((await cron(`Bearer ${CRON_SECRET}`)).status).toBe(200);
    expect(await prisma.conversation.findUnique({ where: { id: old.conversationId } })).toBeNull();
    expect(await prisma.conversation.findUnique({ where: { id: kept.conversationId } })).not.toBeNull();
  });

  test("the secret's call delivers webhooks and emails with no worker running", async () => {
    await (await db()).notificationEvent.deleteMany({}); // the refused calls' leftovers
    const created = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: receiver.url, events: ["conversation.started"] } });
    receiver.useSecret(created.json.result.secret);
    const started = await openConversation({ body: "Is anyone there?" });
    const filed = await fileTicket(started.site.id, ticket({ email: "cron-filer@example.com", subject: "Late parcel" }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(0); // nothing runs between requests here
    expect(smtp.to("cron-filer@example.com")).toHaveLength(0);
    expect(notificationsRunning()).toBe(false);

    const response = await cron(`Bearer ${CRON_SECRET}`);
    expect(response.status).toBe(200);
    expect(response.json.result).toMatchObject({ deliveries: 1 });
    expect(response.json.result.events).toBeGreaterThanOrEqual(3); // the started conversation, its message, the ticket
    expect(response.json.result.jobs).toBeGreaterThanOrEqual(1); // the acknowledgement's send
    expect(await pendingEvents()).toBe(0);

    expect(receiver.received.map((request) => [request.payload.type, request.payload.data.conversation_id, request.verified])).toEqual([
      ["conversation.started", started.conversationId, true],
    ]);
    const [ack] = await eventually(() => {
      const mails = smtp.to("cron-filer@example.com");
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(ack!.parsed.subject).toBe(`[#${filed.number}] Late parcel`);
    const deliveries = await api.get(`/api/v1/admin/webhooks/${created.json.result.id}/deliveries`, { admin: true });
    expect(deliveries.json.result).toEqual([expect.objectContaining({ status: "succeeded", attempt: 1, response_status: 200 })]);

    // Nothing left: the next call finds nothing in one round.
    const again = await cron(`Bearer ${CRON_SECRET}`);
    expect(again.json.result).toEqual({ events: 0, jobs: 0, deliveries: 0, rounds: 1 });
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { log } from "../../lib/core/log";
import { db } from "../../lib/db/client";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { recheckWebhookTargets } from "../../lib/webhooks/recheck-targets";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { openConversation } from "../support/fixtures";
import { as, createStaff } from "../support/inbox";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// Issue 38: many internal hooks are plain http. WEBHOOK_ALLOWED_TARGETS lets http through for the
// targets it lists itself (nothing else: other targets stay https and SSRF-guarded); and since the
// rules can change between starts, each start checks the stored URLs again and flags those that no
// longer pass — kept, shown, logged once, and not attempted until the URL or the rules change.
process.env.WEBHOOK_ALLOWED_TARGETS = "127.0.0.1";
delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;

const TIMINGS = { webhookTimeoutMs: 3_000, webhookRetryScheduleMs: [200], dispatchPollMs: 50, jobExpirySeconds: 10, maintenanceSeconds: 1 };
const events = ["conversation.started"];

let receiver: WebhookReceiver; // plain http on 127.0.0.1
let worker: NotificationWorker | null = null;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  // The first call loads the route modules, which on a busy machine can take most of a test's time.
  expect((await api.get("/api/v1/admin/webhooks", { admin: true })).status).toBe(200);
});
afterAll(async () => {
  await receiver.stop();
});
afterEach(async () => {
  await worker?.stop();
  worker = null;
  vi.restoreAllMocks();
  await (await db()).webhook.deleteMany({});
  receiver.received.length = 0;
});

const listedUrl = () => `http://127.0.0.1:${receiver.port}/hook`;

async function register(url: string) {
  const response = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url, events } });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.result as { id: string; secret: string; url: string };
}

const deliveries = async (id: string) => (await api.get(`/api/v1/admin/webhooks/${id}/deliveries`, { admin: true })).json.result;
const read = async (id: string) => ((await api.get("/api/v1/admin/webhooks", { admin: true })).json.result as { id: string; url: string; health: { url_refused: string | null } }[]).find((hook) => hook.id === id);

describe("http for a target WEBHOOK_ALLOWED_TARGETS lists", () => {
  test("is registered and delivered; unlisted http targets are still refused", async () => {
    const hook = await register(listedUrl());
    expect(hook.url).toBe(listedUrl());
    receiver.useSecret(hook.secret);
    worker = await startNotificationWorker({ timings: TIMINGS });
    await openConversation();
    await eventually(() => expect(receiver.received).toHaveLength(1));
    expect(receiver.received[0]!.verified).toBe(true);
    await eventually(async () => expect((await deliveries(hook.id))[0]).toMatchObject({ status: "succeeded", attempt: 1, response_status: 200 }));

    for (const url of [`http://127.0.0.2:${receiver.port}/hook`, "http://hooks.example.com/hook", `http://localhost:${receiver.port}/hook`]) {
      const refused = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url, events } });
      expectError(refused, 400, "invalid_request");
      expect(JSON.stringify(refused.json), url).toMatch(/must be an https URL/);
    }
    expect(await (await db()).webhook.count()).toBe(1);
  });
});

describe("the stored URLs, checked again at start", () => {
  test("one the rules no longer let through is flagged (API, inbox, one log line), kept, and not attempted; a URL that passes releases it", async () => {
    const hook = await register(listedUrl());
    receiver.useSecret(hook.secret);
    // Registered under looser rules (WEBHOOK_ALLOW_PRIVATE_TARGETS=on, say), which this start no longer has.
    const unlisted = `http://127.0.0.2:${receiver.port}/hook`;
    await (await db()).webhook.update({ where: { id: hook.id }, data: { url: unlisted } });

    const notice = vi.spyOn(log, "notice");
    expect(await recheckWebhookTargets()).toEqual([hook.id]);
    const logged = notice.mock.calls.filter(([, event]) => event === "webhook_targets_refused");
    expect(logged).toHaveLength(1);
    expect(logged[0]![3]).toEqual({ webhooks: [hook.id] });

    const flagged = await read(hook.id);
    expect(flagged).toMatchObject({ url: unlisted });
    expect(flagged!.health.url_refused).toMatch(/must be an https URL/);
    const owner = await createStaff("owner");
    const inInbox = (await api.get("/api/v1/inbox/webhooks", as(owner))).json.result as { id: string; health: { url_refused: string | null } }[];
    expect(inInbox.find((entry) => entry.id === hook.id)!.health.url_refused).toBe(flagged!.health.url_refused);

    // Not attempted: a test event waits, and a new event is not queued for it.
    worker = await startNotificationWorker({ timings: TIMINGS });
    expect((await api.post(`/api/v1/admin/webhooks/${hook.id}/test`, { admin: true })).status).toBe(201);
    await openConversation();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const waiting = await deliveries(hook.id);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ type: "webhook.test", status: "pending", attempt: 0 });
    expect((await read(hook.id))!.health).toMatchObject({ last_attempt_at: null, failures_in_a_row: 0 });

    // A URL that passes clears the flag; the waiting delivery goes.
    const fixed = await api.patch(`/api/v1/admin/webhooks/${hook.id}`, { admin: true, body: { url: listedUrl() } });
    expect(fixed.status).toBe(200);
    expect(fixed.json.result.health.url_refused).toBeNull();
    await eventually(() => expect(receiver.received.map((request) => JSON.parse(request.body).type)).toEqual(["webhook.test"]));
    notice.mockClear();
    expect(await recheckWebhookTargets()).toEqual([]);
    expect(notice).not.toHaveBeenCalled();
  });
});

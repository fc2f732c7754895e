import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { DEFAULT_TIMINGS, type NotificationTimings } from "../../lib/jobs/timings";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { createMember, openConversation, ORIGIN } from "../support/fixtures";
import { fileTicket, putUpload, ticket, file, PNG_BYTES } from "../support/tickets";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// Webhooks against a real HTTP receiver that checks every signature with the `standardwebhooks`
// package. Receivers listen on loopback, so private targets are allowed in this file
// (webhook-targets.test.ts covers the refusal).
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on";

const FAST: Partial<NotificationTimings> = {
  webhookTimeoutMs: 3_000, // short for the hang test, still generous on a loaded machine
  webhookRetryScheduleMs: [300, 300, 300],
  dispatchPollMs: 50,
  jobPollMs: 500,
  jobExpirySeconds: 10,
  maintenanceSeconds: 1,
};

let receiver: WebhookReceiver;
let worker: NotificationWorker | null = null;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await receiver.stop();
});
afterEach(async () => {
  await worker?.stop();
  worker = null;
  await (await db()).webhook.deleteMany({});
  receiver.received.length = 0;
  receiver.fallback = 200;
});

async function register(events: string[], url = receiver.url) {
  const response = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url, events, description: "test" } });
  expect(response.status).toBe(201);
  receiver.useSecret(response.json.result.secret);
  return response.json.result as { id: string; secret: string; url: string; events: string[] };
}

const deliveries = async (webhookId: string) => (await api.get(`/api/v1/admin/webhooks/${webhookId}/deliveries`, { admin: true })).json.result;

describe("webhook registration", () => {
  test("create answers 201 with a whsec_ secret of 32 random bytes, shown only there", async () => {
    const created = await register(["message.created"]);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32);
    const list = await api.get("/api/v1/admin/webhooks", { admin: true });
    expect(list.status).toBe(200);
    expect(list.json.result).toEqual([expect.objectContaining({ id: created.id, url: receiver.url, events: ["message.created"] })]);
    expect(JSON.stringify(list.json.result)).not.toContain("whsec_");
  });

  test("bad input is a 400 in the envelope and changes nothing", async () => {
    const bad = [
      { url: "not a url", events: ["message.created"] },
      { url: "ftp://example.com/x", events: ["message.created"] },
      { url: receiver.url, events: ["message.deleted"] },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ["message.created", "message.created"] },
      { url: receiver.url, events: ["message.created"], description: "d".repeat(501) },
      { url: receiver.url, events: ["message.created"], extra: true },
    ];
    for (const body of bad) {
      const response = await api.post("/api/v1/admin/webhooks", { admin: true, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json.result.code).toBe("invalid_request");
    }
    expect(await (await db()).webhook.count()).toBe(0);
  });

  test("PATCH changes events and description, DELETE removes; both 404 for an unknown id", async () => {
    const created = await register(["message.created"]);
    const patched = await api.patch(`/api/v1/admin/webhooks/${created.id}`, {
      admin: true,
      body: { events: ["ticket.created"], description: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.result).toMatchObject({ events: ["ticket.created"], description: null });
    expect(JSON.stringify(patched.json.result)).not.toContain("whsec_");
    expect((await api.patch(`/api/v1/admin/webhooks/${created.id}`, { admin: true, body: { events: ["nope"] } })).status).toBe(400);
    expect((await api.patch(`/api/v1/admin/webhooks/wh_unknown`, { admin: true, body: { description: "x" } })).status).toBe(404);
    expect((await api.delete(`/api/v1/admin/webhooks/${created.id}`, { admin: true })).status).toBe(200);
    expect((await api.delete(`/api/v1/admin/webhooks/${created.id}`, { admin: true })).status).toBe(404);
    expect((await api.get(`/api/v1/admin/webhooks/${created.id}/deliveries`, { admin: true })).status).toBe(404);
  });

  test("the operator token is required", async () => {
    expect((await api.get("/api/v1/admin/webhooks")).status).toBe(401);
    expect((await api.post("/api/v1/admin/webhooks", { body: { url: receiver.url, events: ["message.created"] } })).status).toBe(401);
  });
});

describe("webhook delivery", () => {
  test("every event reaches the receiver signed (verified by standardwebhooks) with the spec's shapes", async () => {
    const hook = await register(["conversation.started", "message.created", "conversation.closed", "ticket.created", "attachment.uploaded"]);
    worker = await startNotificationWorker({ timings: FAST });
    const member = await createMember();
    const started = await openConversation({ name: "Ada", body: "Hello there" });
    await api.post(`/api/v1/admin/conversations/${started.conversationId}/messages`, {
      admin: true,
      body: { author_id: member.id, body: "Hi Ada" },
    });
    await api.post(`/api/v1/admin/conversations/${started.conversationId}/messages`, {
      admin: true,
      body: { author_id: member.id, body: "internal", kind: "note" },
    });
    await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true });
    const filed = await fileTicket(started.site.id, ticket({ files: [file()] }));
    expect((await putUpload(filed.uploads[0]!.upload_url, PNG_BYTES)).status).toBe(200);

    const received = await eventually(() => {
      const types = receiver.received.map((request) => request.payload.type).sort();
      expect(types).toEqual(
        // Closing appends a public system message (decisions.md), which is a message.created too.
        ["attachment.uploaded", "conversation.closed", "conversation.started", "message.created", "message.created", "message.created", "ticket.created"].sort(),
      );
      return receiver.received;
    });
    for (const request of received) {
      expect(request.verified, request.body).toBe(true);
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(Math.abs(Number(request.timestamp) - Date.now() / 1000)).toBeLessThan(30);
      expect(request.payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    const byType = (type: string) => received.filter((request) => request.payload.type === type).map((request) => request.payload.data);
    const messages = byType("message.created");
    expect(messages.map((data) => data.message.body).sort()).toEqual(["Hello there", "Hi Ada", "This conversation was closed."]);
    expect(messages.find((data) => data.message.author_type === "system")?.message.body).toBe("This conversation was closed.");
    expect(messages.find((data) => data.message.body === "Hi Ada")).toMatchObject({
      conversation_id: started.conversationId,
      site_id: started.site.id,
      message: { author_type: "staff", author_name: "Grace Staff", author_avatar: expect.stringContaining(member.id), kind: "message" },
    });
    expect(JSON.stringify(messages)).not.toContain("internal"); // notes never leave
    expect(byType("conversation.started")[0]).toMatchObject({ conversation_id: started.conversationId, site_id: started.site.id });
    expect(byType("conversation.closed")[0].conversation).toMatchObject({ status: "closed" });
    expect(byType("ticket.created")[0].ticket).toMatchObject({
      number: filed.number,
      subject: "My order",
      status: "open",
      assignee: null,
      solved_at: null,
      attachments: [{ name: "photo.png", uploaded: false }],
    });
    expect(byType("ticket.created")[0].ticket.updated_at).toBe(byType("ticket.created")[0].ticket.created_at);
    expect(byType("attachment.uploaded")[0]).toMatchObject({ ticket_number: filed.number, attachment: { name: "photo.png", uploaded: true } });

    // The receiver has answered; the worker records each answer right after.
    await eventually(async () => {
      const log = await deliveries(hook.id);
      expect(log.map((delivery: any) => [delivery.status, delivery.response_status])).toEqual(Array(7).fill(["succeeded", 200]));
    });
  });

  test("a receiver answering 500 then 200 gets the event twice with the same webhook-id", async () => {
    const hook = await register(["conversation.started"]);
    receiver.answer(500, 200);
    worker = await startNotificationWorker({ timings: FAST });
    await openConversation();
    await eventually(() => expect(receiver.received).toHaveLength(2));
    const [first, second] = receiver.received;
    expect(first!.id).toBe(second!.id);
    expect(first!.body).toBe(second!.body);
    expect(first!.verified && second!.verified).toBe(true);
    const [delivery] = await eventually(async () => {
      const log = await deliveries(hook.id);
      expect(log[0].status).toBe("succeeded");
      return log;
    });
    expect(delivery).toMatchObject({ attempt: 2, response_status: 200, event_id: first!.id, type: "conversation.started" });
    // The failed answer's body was cut to 1 KB (the receiver sent 5 KB).
    const row = await (await db()).webhookDelivery.findFirstOrThrow({ where: { webhookId: hook.id } });
    expect(row.responseBody).toBe("ok");
  });

  // What the code guarantees, not how long a loaded machine took: the sender itself closes the
  // unanswered exchange, the attempt is recorded as the timeout (naming the configured value), and
  // it is retried. The gap between the two requests at the receiver also carries the first
  // request's own delay, which load stretches (it once missed a margin by 27 ms).
  test("a receiver that never answers is cut at the timeout; the retry succeeds", async () => {
    const hook = await register(["conversation.started"]);
    receiver.answer("hang", 200);
    // The retry waits an hour, so the recorded timeout stays there to read; it is then sent by hand.
    worker = await startNotificationWorker({ timings: { ...FAST, webhookRetryScheduleMs: [60 * 60_000] } });
    await openConversation();
    const [timedOut] = await eventually(async () => {
      const log = await deliveries(hook.id);
      expect(log[0]).toMatchObject({ status: "pending", attempt: 1, response_status: null, error: `No answer within ${FAST.webhookTimeoutMs! / 1000} s.` });
      return log;
    });
    await eventually(() => expect(receiver.received[0]!.abandoned).toBe(true));
    expect(receiver.received).toHaveLength(1);

    expect((await api.post(`/api/v1/admin/webhooks/${hook.id}/deliveries/${timedOut.id}/retry`, { admin: true })).status).toBe(200);
    await eventually(async () => expect((await deliveries(hook.id))[0]).toMatchObject({ status: "succeeded", attempt: 2, response_status: 200 }));
    expect(receiver.received.map((request) => [request.id, request.abandoned])).toEqual([
      [timedOut.event_id, true],
      [timedOut.event_id, false],
    ]);
  });

  test("the default timeout is 10 s and the retry schedule is decisions.md's", () => {
    expect(DEFAULT_TIMINGS.webhookTimeoutMs).toBe(10_000);
    const minutes = 60_000;
    expect(DEFAULT_TIMINGS.webhookRetryScheduleMs).toEqual([5_000, 5 * minutes, 30 * minutes, 120 * minutes, 300 * minutes, 600 * minutes, 600 * minutes]);
  });

  test("after the last scheduled retry the delivery is failed; a manual retry sends it again with the same id", async () => {
    const hook = await register(["conversation.started"]);
    receiver.fallback = 503;
    worker = await startNotificationWorker({ timings: FAST });
    await openConversation();
    const [failed] = await eventually(async () => {
      const log = await deliveries(hook.id);
      expect(log[0].status).toBe("failed");
      return log;
    });
    expect(failed).toMatchObject({ attempt: 4, response_status: 503, next_attempt_at: null });
    expect(receiver.received).toHaveLength(4);

    receiver.fallback = 204;
    const retried = await api.post(`/api/v1/admin/webhooks/${hook.id}/deliveries/${failed.id}/retry`, { admin: true });
    expect(retried.status).toBe(200);
    expect(retried.json.result.status).toBe("pending");
    await eventually(async () => expect((await deliveries(hook.id))[0]).toMatchObject({ status: "succeeded", attempt: 5, response_status: 204 }));
    expect(new Set(receiver.received.map((request) => request.id)).size).toBe(1);
    expect((await api.post(`/api/v1/admin/webhooks/${hook.id}/deliveries/whd_nope/retry`, { admin: true })).status).toBe(404);
  });

  test("a restart between attempts still delivers", async () => {
    const hook = await register(["conversation.started"]);
    receiver.answer(500);
    const slowRetry = { ...FAST, webhookRetryScheduleMs: [1_500] };
    worker = await startNotificationWorker({ timings: slowRetry });
    await openConversation();
    await eventually(() => expect(receiver.received).toHaveLength(1));
    await worker.stop();
    worker = null;
    await eventually(async () => expect((await deliveries(hook.id))[0]).toMatchObject({ status: "pending", attempt: 1 }));
    worker = await startNotificationWorker({ timings: slowRetry });
    await eventually(() => expect(receiver.received).toHaveLength(2));
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    await eventually(async () => expect((await deliveries(hook.id))[0]).toMatchObject({ status: "succeeded", attempt: 2 }));
  });

  test("an attempt whose worker died is taken up by another worker once its hold runs out", async () => {
    const hook = await register(["conversation.started"]);
    receiver.answer("hang", 200);
    const shortHold = { ...FAST, webhookTimeoutMs: 1_000 }; // held for the timeout + 5 s
    worker = await startNotificationWorker({ timings: shortHold });
    await openConversation();
    await eventually(() => expect(receiver.received).toHaveLength(1));
    await worker.stop({ abrupt: true }); // as a crash would: the attempt's answer is never written
    const { lockedUntil } = await (await db()).webhookDelivery.findFirstOrThrow({ where: { webhookId: hook.id } });
    worker = await startNotificationWorker({ timings: shortHold });
    await eventually(() => expect(receiver.received).toHaveLength(2), 15_000);
    // Not taken up while the dead worker's hold lasted, however long the machine took meanwhile.
    expect(receiver.received[1]!.at).toBeGreaterThanOrEqual(lockedUntil!.getTime());
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    await eventually(async () => expect((await deliveries(hook.id))[0]).toMatchObject({ status: "succeeded", attempt: 2 }));
  });

  test("events that happen while no worker runs are delivered when one starts", async () => {
    await register(["message.created"]);
    const started = await openConversation({ body: "while nobody listens" });
    expect(await (await db()).notificationEvent.count()).toBeGreaterThan(0);
    worker = await startNotificationWorker({ timings: FAST });
    await eventually(() => expect(receiver.received.map((request) => request.payload.data.message.body)).toEqual(["while nobody listens"]));
    expect(receiver.received[0]!.payload.data.conversation_id).toBe(started.conversationId);
  });

  test("a redirect is not followed: it is a failed attempt", async () => {
    const hook = await register(["conversation.started"]);
    receiver.answer(302, 200);
    worker = await startNotificationWorker({ timings: FAST });
    await openConversation();
    await eventually(async () => expect((await deliveries(hook.id))[0]).toMatchObject({ status: "succeeded", attempt: 2 }));
    expect(receiver.received).toHaveLength(2);
  });
});

describe("kept connections", () => {
  afterEach(() => {
    receiver.resetReusedConnections = false;
  });

  /** Opens conversations one after the other, each delivered before the next begins. */
  async function deliverOneByOne(count: number, between?: () => void) {
    for (let i = 0; i < count; i++) {
      await openConversation();
      await eventually(() => expect(receiver.received).toHaveLength(i + 1));
      between?.();
    }
  }

  const expectAllFirstAttempts = async (webhookId: string, count: number) =>
    eventually(async () => {
      const log = await deliveries(webhookId);
      expect(log.map((delivery: any) => [delivery.status, delivery.attempt, delivery.error])).toEqual(Array(count).fill(["succeeded", 1, null]));
    });

  test("deliveries to one receiver share connections", async () => {
    const hook = await register(["conversation.started"]);
    worker = await startNotificationWorker({ timings: FAST });
    const before = receiver.connections;
    await deliverOneByOne(5);
    expect(receiver.connections - before).toBeLessThan(5);
    await expectAllFirstAttempts(hook.id, 5);
    expect(receiver.received.every((request) => request.verified)).toBe(true);
  });

  test("a kept connection the receiver cuts as it is reused is not a failed attempt: it goes again on a new one", async () => {
    const hook = await register(["conversation.started"]);
    receiver.resetReusedConnections = true;
    worker = await startNotificationWorker({ timings: FAST });
    await deliverOneByOne(4);
    expect(receiver.resets).toBeGreaterThan(0); // kept connections were reused, and cut
    await expectAllFirstAttempts(hook.id, 4);
    expect(new Set(receiver.received.map((request) => request.id)).size).toBe(4);
  });

  test("a receiver closing its idle connections between deliveries causes no failed attempt", async () => {
    const hook = await register(["conversation.started"]);
    worker = await startNotificationWorker({ timings: FAST });
    await deliverOneByOne(4, () => receiver.closeIdleConnections());
    await expectAllFirstAttempts(hook.id, 4);
  });
});

test("the origin header is not needed on operator routes (no CORS)", async () => {
  const response = await api.get("/api/v1/admin/webhooks", { admin: true, origin: ORIGIN });
  expect(response.status).toBe(200);
});

test("webhook secrets and SMTP passwords are scrubbed from any log line", async () => {
  const { redact } = await import("../../lib/core/log");
  const secret = "whsec_" + Buffer.alloc(32, 7).toString("base64");
  const line = redact(JSON.stringify({ error: `failed with ${secret} via smtps://mailer:hunter2-secret@smtp.example:465` }), null);
  expect(line).not.toContain(secret.slice(6));
  expect(line).not.toContain("hunter2-secret");
});

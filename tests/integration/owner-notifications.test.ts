import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { as, createStaff, type Staff } from "../support/inbox";
import { rowCounts } from "../support/row-counts";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// Notifications an owner can trust (issue 28, item 6): a webhook's health and its test event
// against a real receiver that verifies every signature.

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on";
let owner: Staff;
let agent: Staff;
let receiver: WebhookReceiver;
let worker: NotificationWorker;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  // No retries: each test event is one attempt, so the health below is exact.
  worker = await startNotificationWorker({ timings: { dispatchPollMs: 50, webhookTimeoutMs: 3_000, webhookRetryScheduleMs: [] } });
});
afterAll(async () => {
  await worker?.stop();
  await receiver.stop();
});

describe("webhook health and test events", () => {
  let webhookId: string;
  beforeAll(async () => {
    const created = await api.post("/api/v1/inbox/webhooks", as(owner, { body: { url: receiver.url, events: ["ticket.created"] } }));
    expect(created.status).toBe(201);
    expect(created.json.result.health).toEqual({
      last_attempt_at: null,
      last_result: null,
      last_response_status: null,
      last_error: null,
      last_success_at: null,
      failures_in_a_row: 0,
      url_refused: null,
    });
    receiver.useSecret(created.json.result.secret);
    webhookId = created.json.result.id;
  });

  test("a test event is refused without a session (401), to an agent (403), from another origin (403), for an unknown webhook (404); nothing is queued", async () => {
    const before = await rowCounts();
    const path = `/api/v1/inbox/webhooks/${webhookId}/test`;
    expectError(await api.post(path, as(null)), 401, "unauthorized");
    expectError(await api.post(path, as(agent)), 403, "forbidden");
    expectError(await api.post(path, as(owner, { origin: "https://evil.example" })), 403, "origin_not_allowed");
    expectError(await api.post("/api/v1/inbox/webhooks/wh_missing/test", as(owner)), 404, "not_found");
    expectError(await api.post(`/api/v1/inbox/webhooks/${"x".repeat(101)}/test`, as(owner)), 400, "invalid_request");
    expectError(await api.post(`/api/v1/admin/webhooks/${webhookId}/test`, { admin: "wrong-token-0123456789" }), 401, "unauthorized");
    expectError(await api.post("/api/v1/admin/webhooks/wh_missing/test", { admin: true }), 404, "not_found");
    expect(await rowCounts()).toEqual(before);
    expect(receiver.received).toHaveLength(0);
  });

  const health = async () => {
    const listed = await api.get("/api/v1/inbox/webhooks", as(owner));
    const operator = await api.get("/api/v1/admin/webhooks", { admin: true });
    const mine = listed.json.result.find((webhook: { id: string }) => webhook.id === webhookId);
    expect(operator.json.result.find((webhook: { id: string }) => webhook.id === webhookId).health).toEqual(mine.health);
    return mine.health;
  };

  test("test events go through the real path, and the health counts failures in a row until a success", async () => {
    receiver.answer(500, 503);
    const sent = await api.post(`/api/v1/inbox/webhooks/${webhookId}/test`, as(owner));
    expect(sent.status).toBe(201);
    expect(sent.json.result).toMatchObject({ type: "webhook.test", status: "pending", attempt: 0 });
    await eventually(async () => expect(await health()).toMatchObject({ last_result: "failed", last_response_status: 500, failures_in_a_row: 1, last_success_at: null }));
    const [first] = receiver.received;
    expect(first).toMatchObject({ verified: true, id: sent.json.result.event_id, payload: { type: "webhook.test", data: { webhook_id: webhookId } } });

    expect((await api.post(`/api/v1/admin/webhooks/${webhookId}/test`, { admin: true })).status).toBe(201);
    await eventually(async () => expect(await health()).toMatchObject({ last_result: "failed", last_response_status: 503, failures_in_a_row: 2 }));

    expect((await api.post(`/api/v1/inbox/webhooks/${webhookId}/test`, as(owner))).status).toBe(201);
    const healthy = await eventually(async () => {
      const now = await health();
      expect(now).toMatchObject({ last_result: "succeeded", last_response_status: 200, last_error: null, failures_in_a_row: 0 });
      return now;
    });
    expect(healthy.last_success_at).toBe(healthy.last_attempt_at);
    expect(receiver.received.map((request) => [request.payload.type, request.verified])).toEqual([
      ["webhook.test", true],
      ["webhook.test", true],
      ["webhook.test", true],
    ]);
    const deliveries = await api.get(`/api/v1/inbox/webhooks/${webhookId}/deliveries`, as(owner));
    expect(deliveries.json.result.map((delivery: { status: string }) => delivery.status)).toEqual(["succeeded", "failed", "failed"]);
    expect(await (await db()).notificationEvent.count()).toBe(0);
  });
});

describe("invites by email, listed and revocable", () => {
  const invites = async () => {
    const response = await api.get("/api/v1/inbox/members/invites", as(owner));
    expect(response.status).toBe(200);
    return response.json.result as { id: string; email: string; role: string; name: string | null }[];
  };

  test("an emailed invite goes to the outbox (kept not sent without SMTP) and is listed as pending", async () => {
    const sent = await api.post("/api/v1/inbox/members/invites", as(owner, { body: { email: "New.Agent@Team.example", name: "Nia New", role: "agent", send_email: true } }));
    expect(sent.status).toBe(201);
    expect(sent.json.result).toMatchObject({ emailed: true, id: expect.any(String) });
    const quiet = await api.post("/api/v1/inbox/members/invites", as(owner, { body: { email: "quiet@team.example", name: "Quinn", role: "owner" } }));
    expect(quiet.json.result.emailed).toBe(false);

    const [email, ...others] = await (await db()).email.findMany({ where: { kind: "staff_invite" } });
    expect(others).toEqual([]);
    expect(email).toMatchObject({ recipient: "new.agent@team.example", status: "not_sent", subject: "You are invited to the team's inbox" });
    expect(email!.textBody).toContain(sent.json.result.invite_url);
    const outbox = await api.get("/api/v1/inbox/outbox?status=not_sent", as(owner));
    expect(outbox.json.result).toEqual([expect.objectContaining({ id: email!.id, kind: "staff_invite" })]);

    const pending = await invites();
    expect(pending.slice(0, 2)).toEqual([
      expect.objectContaining({ id: quiet.json.result.id, email: "quiet@team.example", role: "owner", name: "Quinn" }),
      expect.objectContaining({ id: sent.json.result.id, email: "new.agent@team.example", role: "agent", name: "Nia New" }),
    ]);
    expect(JSON.stringify(pending)).not.toContain("in_"); // never the code
  });

  test("bad input, no session, an agent or another origin change nothing", async () => {
    const before = await rowCounts();
    const path = "/api/v1/inbox/members/invites";
    expectError(await api.post(path, as(owner, { body: { email: "x@team.example", name: "X", role: "agent", send_email: "yes" } })), 400, "invalid_request");
    expectError(await api.post(path, as(agent, { body: { email: "x@team.example", name: "X", role: "agent", send_email: true } })), 403, "forbidden");
    expectError(await api.get(path, as(agent)), 403, "forbidden");
    expectError(await api.get(path, as(null)), 401, "unauthorized");
    const [first] = await invites();
    expectError(await api.delete(`${path}/${first!.id}`, as(agent)), 403, "forbidden");
    expectError(await api.delete(`${path}/${first!.id}`, as(owner, { origin: "https://evil.example" })), 403, "origin_not_allowed");
    expectError(await api.delete(`${path}/no-such-invite`, as(owner)), 404, "not_found");
    expectError(await api.post("/api/v1/admin/members/nobody/invite", { admin: true, body: { email: "x@team.example", role: "agent", send_email: 1 } }), 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
  });

  test("a revoked invite leaves the list and its link stops working", async () => {
    const created = await api.post("/api/v1/inbox/members/invites", as(owner, { body: { email: "gone@team.example", name: "Gone", role: "agent" } }));
    const code = new URL(created.json.result.invite_url).searchParams.get("code")!;
    const revoked = await api.delete(`/api/v1/inbox/members/invites/${created.json.result.id}`, as(owner));
    expect(revoked.status).toBe(200);
    expect(revoked.json.result).toEqual({ id: created.json.result.id, revoked: true });
    expect((await invites()).map((invite) => invite.id)).not.toContain(created.json.result.id);
    expectError(await api.post("/api/v1/inbox/invites/accept", as(null, { body: { code, password: "correct horse battery" } })), 400, "invite_invalid");
    expectError(await api.delete(`/api/v1/inbox/members/invites/${created.json.result.id}`, as(owner)), 404, "not_found");
  });
});

import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { webhookSecretPlace } from "../../lib/secrets/places";
import { openSecret } from "../../lib/secrets/seal";
import { api, type CallOptions } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { rowCounts } from "../support/row-counts";
import { fileTicket, ticket } from "../support/tickets";
import { eventually } from "../support/webhook-receiver";

// The inbox's notification settings (owners): webhooks with their delivery log and retry, and the
// email outbox; and the verified-identity marks. WEBHOOK_ALLOW_PRIVATE_TARGETS stays unset here, so
// the refusal of http and internal targets is checked too; deliveries go to a name that never
// resolves (`.invalid`), which makes each attempt fail the same way, and the log deterministic.

let owner: Staff;
let agent: Staff;
let worker: NotificationWorker;
let webhookId: string;

const HOOK_URL = "https://hooks.parley.invalid/endpoint";

beforeAll(async () => {
  delete process.env.SMTP_URL;
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  const created = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: HOOK_URL, events: ["ticket.created"] } });
  expect(created.status).toBe(201);
  webhookId = created.json.result.id;
  // One retry a minute later: after the first failed attempt a delivery stays pending.
  worker = await startNotificationWorker({ timings: { dispatchPollMs: 50, jobPollMs: 500, webhookTimeoutMs: 2_000, webhookRetryScheduleMs: [60_000] } });
});
afterAll(() => worker?.stop());

/** A delivery to `webhookId` through the real flow: a ticket is filed, the worker attempts it once. */
async function failedOnceDelivery() {
  const deliveries = async () => (await api.get(`/api/v1/inbox/webhooks/${webhookId}/deliveries`, as(owner))).json.result as { id: string }[];
  const known = new Set((await deliveries()).map((delivery) => delivery.id));
  const site = await createSite();
  await fileTicket(site.id, ticket({ email: "filer@example.com" }));
  return eventually(async () => {
    const [latest] = await deliveries();
    expect(known.has(latest!.id)).toBe(false);
    expect(latest).toMatchObject({ type: "ticket.created", attempt: 1, status: "pending", error: "The target host could not be resolved." });
    return latest as { id: string; event_id: string; next_attempt_at: string };
  });
}

const webhookState = async () => {
  const prisma = await db();
  return {
    rows: await rowCounts(),
    webhooks: await prisma.webhook.findMany({ orderBy: { id: "asc" } }),
    deliveries: await prisma.webhookDelivery.findMany({ orderBy: { id: "asc" }, select: { id: true, status: true, attempt: true, nextAttemptAt: true } }),
  };
};

type Route = { method: "get" | "post" | "patch" | "delete"; path: () => string; body?: unknown };
const NO_DELIVERY = "dl_none";
const routes: Route[] = [
  { method: "get", path: () => "/api/v1/inbox/webhooks" },
  { method: "post", path: () => "/api/v1/inbox/webhooks", body: { url: "https://new.example/hook", events: ["message.created"] } },
  { method: "patch", path: () => `/api/v1/inbox/webhooks/${webhookId}`, body: { description: "changed" } },
  { method: "delete", path: () => `/api/v1/inbox/webhooks/${webhookId}` },
  { method: "get", path: () => `/api/v1/inbox/webhooks/${webhookId}/deliveries` },
  { method: "post", path: () => `/api/v1/inbox/webhooks/${webhookId}/deliveries/${NO_DELIVERY}/retry` },
  { method: "get", path: () => "/api/v1/inbox/outbox" },
];
const label = (route: Route) => `${route.method.toUpperCase()} ${route.path()}`;
const callRoute = (route: Route, options: CallOptions) => api[route.method](route.path(), { body: route.body, ...options });

describe("every webhook and outbox route of the inbox", () => {
  test("without a session → 401 unauthorized; as an agent → 403 forbidden; nothing changed", async () => {
    for (const [staff, status, code] of [
      [null, 401, "unauthorized"],
      [agent, 403, "forbidden"],
    ] as const) {
      for (const route of routes) {
        const before = await webhookState();
        const response = await callRoute(route, as(staff));
        expect({ route: label(route), status: response.status, code: response.json.result.code }).toEqual({ route: label(route), status, code });
        expect(await webhookState()).toEqual(before);
      }
    }
  });

  test("state changes without the inbox's Origin → 403 origin_not_allowed, nothing changed", async () => {
    const delivery = await failedOnceDelivery();
    const changes = routes.filter((route) => route.method !== "get");
    changes.push({ method: "post", path: () => `/api/v1/inbox/webhooks/${webhookId}/deliveries/${delivery.id}/retry` });
    for (const route of changes) {
      for (const origin of [null, "https://evil.example", ORIGIN]) {
        const before = await webhookState();
        const response = await callRoute(route, as(owner, { origin }));
        expect({ route: label(route), origin, status: response.status, code: response.json.result.code }).toEqual({
          route: label(route),
          origin,
          status: 403,
          code: "origin_not_allowed",
        });
        expect(await webhookState()).toEqual(before);
      }
    }
  });

  test("bad input → 400 invalid_request in the envelope, nothing changed", async () => {
    const events = ["message.created"];
    const bad: [string, string, unknown][] = [
      ["post", "/api/v1/inbox/webhooks", { url: "not a url", events }],
      ["post", "/api/v1/inbox/webhooks", { url: "http://example.com/hook", events }],
      ["post", "/api/v1/inbox/webhooks", { url: "https://127.0.0.1/hook", events }],
      ["post", "/api/v1/inbox/webhooks", { url: "https://10.1.2.3/hook", events }],
      ["post", "/api/v1/inbox/webhooks", { url: "https://169.254.169.254/latest/meta-data", events }],
      ["post", "/api/v1/inbox/webhooks", { url: "https://example.com/hook", events: ["message.deleted"] }],
      ["post", "/api/v1/inbox/webhooks", { url: "https://example.com/hook", events: [] }],
      ["post", "/api/v1/inbox/webhooks", { url: "https://example.com/hook", events, description: "d".repeat(501) }],
      ["post", "/api/v1/inbox/webhooks", { url: "https://example.com/hook", events, secret: "whsec_mine" }],
      ["patch", `/api/v1/inbox/webhooks/${webhookId}`, {}],
      ["patch", `/api/v1/inbox/webhooks/${webhookId}`, { url: "https://[::1]/hook" }],
      ["patch", `/api/v1/inbox/webhooks/${webhookId}`, { events: ["ticket.created", "ticket.created"] }],
      ["patch", `/api/v1/inbox/webhooks/${webhookId}`, { description: "d".repeat(501) }],
    ];
    for (const [method, path, body] of bad) {
      const before = await webhookState();
      const response = await api[method as "post"](path, as(owner, { body }));
      expect({ path, body, status: response.status, code: response.json.result.code }).toEqual({ path, body, status: 400, code: "invalid_request" });
      expect(await webhookState()).toEqual(before);
    }
  });

  test("unknown webhooks and deliveries → 404 not_found", async () => {
    expectError(await api.patch("/api/v1/inbox/webhooks/wh_none", as(owner, { body: { description: "x" } })), 404, "not_found");
    expectError(await api.delete("/api/v1/inbox/webhooks/wh_none", as(owner)), 404, "not_found");
    expectError(await api.get("/api/v1/inbox/webhooks/wh_none/deliveries", as(owner)), 404, "not_found");
    expectError(await api.post(`/api/v1/inbox/webhooks/${webhookId}/deliveries/${NO_DELIVERY}/retry`, as(owner)), 404, "not_found");
  });
});

describe("webhooks in the inbox (owners)", () => {
  test("create shows the whsec_ secret once; list, update and delete never show it", async () => {
    const created = await api.post("/api/v1/inbox/webhooks", as(owner, { body: { url: "https://Crm.Example/hooks/parley", events: ["conversation.started", "message.created"], description: "CRM" } }));
    expect(created.status).toBe(201);
    const { id, secret } = created.json.result;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.json.result).toMatchObject({ url: "https://Crm.Example/hooks/parley", events: ["conversation.started", "message.created"], description: "CRM" });

    const listed = await api.get("/api/v1/inbox/webhooks", as(owner));
    expect(listed.json.result.map((webhook: { id: string }) => webhook.id)).toEqual([webhookId, id]);
    expect(JSON.stringify(listed.json)).not.toContain("whsec_");

    const updated = await api.patch(`/api/v1/inbox/webhooks/${id}`, as(owner, { body: { events: ["conversation.closed"], description: null } }));
    expect(updated.status).toBe(200);
    expect(updated.json.result).toMatchObject({ id, events: ["conversation.closed"], description: null });
    expect(JSON.stringify(updated.json)).not.toContain("whsec_");
    const stored = (await (await db()).webhook.findUniqueOrThrow({ where: { id } })).secret;
    expect(openSecret(stored, webhookSecretPlace(id))).toBe(secret); // signing continues with it (kept sealed)

    const deleted = await api.delete(`/api/v1/inbox/webhooks/${id}`, as(owner));
    expect(deleted.json.result).toEqual({ id, deleted: true });
    expect((await api.get("/api/v1/inbox/webhooks", as(owner))).json.result.map((webhook: { id: string }) => webhook.id)).toEqual([webhookId]);
  });

  test("the delivery log lists the newest first; retry queues one more attempt with the same event id", async () => {
    const first = await failedOnceDelivery();
    const second = await failedOnceDelivery();
    const log = (await api.get(`/api/v1/inbox/webhooks/${webhookId}/deliveries`, as(owner))).json.result;
    expect(log.slice(0, 2).map((delivery: { id: string }) => delivery.id)).toEqual([second.id, first.id]);
    expect(new Date(first.next_attempt_at).getTime()).toBeGreaterThan(Date.now() + 30_000);

    const retried = await api.post(`/api/v1/inbox/webhooks/${webhookId}/deliveries/${first.id}/retry`, as(owner));
    expect(retried.status).toBe(200);
    expect(retried.json.result).toMatchObject({ id: first.id, event_id: first.event_id, status: "pending" });
    // The schedule has one retry: the second attempt (now, not in a minute) is the last.
    const after = await eventually(async () => {
      const entry = (await api.get(`/api/v1/inbox/webhooks/${webhookId}/deliveries`, as(owner))).json.result.find((delivery: { id: string }) => delivery.id === first.id);
      expect(entry).toMatchObject({ attempt: 2, status: "failed", next_attempt_at: null });
      return entry;
    });
    expect(after.event_id).toBe(first.event_id);
  });
});

describe("the email outbox in the inbox (owners)", () => {
  test("lists emails newest first, not sent without SMTP_URL, with their text", async () => {
    const site = await createSite();
    const filed = await fileTicket(site.id, ticket({ email: "outbox@example.com", subject: "Outbox check" }));
    const emails = await eventually(async () => {
      const response = await api.get("/api/v1/inbox/outbox", as(owner));
      expect(response.status).toBe(200);
      expect(response.json.result.map((email: { to: string }) => email.to)).toContain("outbox@example.com");
      return response.json.result as { to: string; created_at: string }[];
    }, 20_000);
    expect(emails.find((email) => email.to === "outbox@example.com")).toMatchObject({
      kind: "ticket_acknowledgement",
      subject: `[#${filed.number}] Outbox check`,
      status: "not_sent",
      sent: false,
      text: expect.stringContaining("It has not arrived."),
    });
    const times = emails.map((email) => email.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });
});

describe("verified identities", () => {
  const hmac = (secret: string, userId: string) => createHmac("sha256", secret).update(userId).digest("hex");

  test("verified conversations are marked in the list and the read; the same user's others are found on the same site only", async () => {
    const site = await createSite();
    const otherSite = await createSite();
    const secrets: Record<string, string> = {};
    for (const id of [site.id, otherSite.id]) {
      secrets[id] = (await api.post(`/api/v1/admin/sites/${id}/identity-secret`, { admin: true })).json.result.identity_secret;
    }
    const start = async (siteId: string, userId?: string) => {
      const identity = userId ? { user_id: userId, user_hash: hmac(secrets[siteId]!, userId) } : {};
      const response = await api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, body: { body: "hi", client_id: "c1", ...identity } });
      expect(response.status).toBe(201);
      return response.json.result.conversation_id as string;
    };
    const earlier = await start(site.id, "customer-7");
    const current = await start(site.id, "customer-7");
    const someoneElse = await start(site.id, "customer-8");
    const anonymous = await start(site.id);
    await start(otherSite.id, "customer-7");

    const items = (await api.get(`/api/v1/inbox/conversations?site=${site.id}`, as(agent))).json.result.items as { id: string; identity_verified: boolean }[];
    expect(Object.fromEntries(items.map((item) => [item.id, item.identity_verified]))).toEqual({ [earlier]: true, [current]: true, [someoneElse]: true, [anonymous]: false });

    const read = (await api.get(`/api/v1/inbox/conversations/${current}`, as(agent))).json.result;
    expect(read).toMatchObject({ user_id: "customer-7", identity_verified: true });
    expect(read.visitor_conversations.map((other: { id: string }) => other.id)).toEqual([earlier]);

    const plain = (await api.get(`/api/v1/inbox/conversations/${anonymous}`, as(agent))).json.result;
    expect(plain).toMatchObject({ user_id: null, identity_verified: false });
    expect(plain.visitor_conversations).toEqual([]);
  });
});

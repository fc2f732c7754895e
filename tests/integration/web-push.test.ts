import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import type { NotificationTimings } from "../../lib/jobs/timings";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { createSite, startConversation } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { PushService } from "../support/push-service";
import { eventually } from "../support/webhook-receiver";

// Web Push (decisions.md, round 3), sending side, against a push service on this machine that
// checks the VAPID signature and decrypts each payload with an independent RFC 8291 implementation.

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on"; // the push service listens on loopback, over http
const service = await new PushService().start();
const TIMINGS: Partial<NotificationTimings> = { staffIdleMs: 60_000, dispatchPollMs: 50, jobPollMs: 500, jobExpirySeconds: 10, maintenanceSeconds: 1 };
let worker: NotificationWorker;
let away: Staff;
let watching: Staff;

beforeAll(async () => {
  worker = await startNotificationWorker({ timings: TIMINGS });
  away = await createStaff("agent", "Ana Away");
  watching = await createStaff("agent", "Wes Watching");
});
afterAll(async () => {
  await worker.stop();
  await service.stop();
});

/** The member's inbox tab was last seen `secondsAgo` ago (an open tab reports every few seconds). */
const lastSeen = async (staff: Staff, secondsAgo: number | null) =>
  (await db()).member.update({ where: { id: staff.id }, data: { inboxActiveAt: secondsAgo === null ? null : new Date(Date.now() - secondsAgo * 1000) } });

describe("Web Push", () => {
  test("the public key is an uncompressed P-256 point, the same on every call", async () => {
    const first = await api.get("/api/v1/inbox/push", as(away));
    expect(first.status).toBe(200);
    expect(Buffer.from(first.json.result.public_key, "base64url")).toHaveLength(65);
    expect((await api.get("/api/v1/inbox/push", as(watching))).json.result.public_key).toBe(first.json.result.public_key);
    expect((await api.get("/api/v1/inbox/push", as(null))).status).toBe(401);
  });

  test("a new conversation is pushed, signed and encrypted, to members with no inbox tab open", async () => {
    const awayBrowser = service.newBrowser("ana-phone");
    const watchingBrowser = service.newBrowser("wes-laptop");
    expect((await api.post("/api/v1/inbox/push/subscriptions", as(away, { body: awayBrowser }))).status).toBe(201);
    expect((await api.post("/api/v1/inbox/push/subscriptions", as(watching, { body: watchingBrowser }))).status).toBe(201);
    await lastSeen(away, 3600);
    await lastSeen(watching, 1);
    const { id: siteId } = await createSite({ daily_allowance: 1000 });
    const started = await startConversation(siteId, { name: "Vera Visitor", body: "Do you ship to Norway?" });

    const push = await eventually(() => {
      const found = service.received.find((p) => p.payload.tag === started.conversationId);
      expect(found).toBeDefined();
      return found!;
    });
    expect(push.path).toBe("/push/ana-phone");
    expect(push.payload).toEqual({
      title: `New conversation on ${siteId}`,
      body: "Vera Visitor: Do you ship to Norway?",
      url: `/inbox/conversations/${started.conversationId}`,
      tag: started.conversationId,
    });
    expect(push.claims.aud).toBe(service.url);
    expect(push.claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(push.claims.sub).toMatch(/^(mailto:|https:)/);
    expect(push.vapidKey).toBe((await api.get("/api/v1/inbox/push", as(away))).json.result.public_key);
    expect(Number(push.ttl)).toBeGreaterThan(0);
    expect(service.refused).toEqual([]);
    // The member watching the inbox got nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(service.received.filter((p) => p.path === "/push/wes-laptop")).toEqual([]);
  });

  test("an assignment by someone else (a person or routing) is pushed to the assignee; taking it oneself is not", async () => {
    const owner = await createStaff("owner", "Olga Owner");
    const browser = service.newBrowser("wes-desk");
    expect((await api.post("/api/v1/inbox/push/subscriptions", as(watching, { body: browser }))).status).toBe(201);
    await lastSeen(watching, 1); // an open tab: the assignment is pushed anyway (it is about them)
    const { id: siteId } = await createSite({ daily_allowance: 1000 });
    const mine = await startConversation(siteId, { name: "Sam Self", body: "First" });
    const theirs = await startConversation(siteId, { name: "Tia Taken", body: "Can someone help?" });
    const assign = (conversationId: string, by: Staff) =>
      api.post(`/api/v1/inbox/conversations/${conversationId}/assign`, as(by, { body: { member_id: watching.id } }));
    expect((await assign(mine.conversationId, watching)).status).toBe(200);
    expect((await assign(theirs.conversationId, owner)).status).toBe(200);

    const push = await eventually(() => {
      const found = service.received.find((p) => p.path === "/push/wes-desk" && p.payload.tag === theirs.conversationId);
      expect(found).toBeDefined();
      return found!;
    });
    expect(push.payload).toEqual({
      title: "Assigned to you: Tia Taken",
      body: "Can someone help?",
      url: `/inbox/conversations/${theirs.conversationId}`,
      tag: theirs.conversationId,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(service.received.filter((p) => p.path === "/push/wes-desk" && p.payload.tag === mine.conversationId)).toEqual([]);
  });

  test("a subscription the push service answers 410 (or 404) for is removed", async () => {
    const browser = service.newBrowser("ana-old-tablet");
    expect((await api.post("/api/v1/inbox/push/subscriptions", as(away, { body: browser }))).status).toBe(201);
    service.answers.set("/push/ana-old-tablet", 410);
    await lastSeen(away, null);
    const { id: siteId } = await createSite({ daily_allowance: 1000 });
    await startConversation(siteId, { body: "Hello?" });
    await eventually(async () => expect(await (await db()).pushSubscription.count({ where: { endpoint: browser.endpoint } })).toBe(0));
  });

  test("bad subscriptions get 400 and store nothing; unsubscribing is the member's own", async () => {
    const before = await (await db()).pushSubscription.count();
    const good = service.newBrowser("check");
    for (const body of [
      { ...good, endpoint: "ftp://push.example/x" },
      { ...good, keys: { ...good.keys, p256dh: "short" } },
      { ...good, keys: { ...good.keys, auth: "!!" } },
      { endpoint: good.endpoint },
      { ...good, extra: true },
    ]) {
      const answer = await api.post("/api/v1/inbox/push/subscriptions", as(away, { body }));
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect(await (await db()).pushSubscription.count()).toBe(before);

    expect((await api.post("/api/v1/inbox/push/subscriptions", as(away, { body: good }))).status).toBe(201);
    expect((await api.delete("/api/v1/inbox/push/subscriptions", as(watching, { body: { endpoint: good.endpoint } }))).status).toBe(404);
    expect((await api.delete("/api/v1/inbox/push/subscriptions", as(away, { body: { endpoint: good.endpoint } }))).status).toBe(200);
    expect(await (await db()).pushSubscription.count()).toBe(before);
  });
});

describe("the installable inbox", () => {
  test("the manifest starts at the inbox and stays in it; the service worker may serve the whole inbox", async () => {
    const { GET: manifest } = await import("../../app/inbox/manifest.webmanifest/route");
    const answer = manifest();
    expect(answer.headers.get("content-type")).toBe("application/manifest+json");
    expect(await answer.json()).toMatchObject({ start_url: "/inbox", scope: "/inbox", display: "standalone", icons: [{ src: "/icon.svg" }] });
    const { GET: worker } = await import("../../app/inbox/sw.js/route");
    const script = worker();
    expect(script.headers.get("service-worker-allowed")).toBe("/inbox");
    expect(await script.text()).toMatch(/addEventListener\("push"[\s\S]*showNotification[\s\S]*addEventListener\("notificationclick"/);
  });
  test("a new conversation of a team is pushed only to members who may see it (docs/teams.md)", async () => {
    const owner = await createStaff("owner", "Tess Teams");
    const outsider = await createStaff("agent", "Otto Outside");
    const team = await api.post("/api/v1/inbox/teams", as(owner, { body: { name: "Push team", member_ids: [away.id] } }));
    expect(team.status).toBe(201);
    const outsiderBrowser = service.newBrowser("otto-phone");
    expect((await api.post("/api/v1/inbox/push/subscriptions", as(outsider, { body: outsiderBrowser }))).status).toBe(201);
    await lastSeen(away, 3600);
    await lastSeen(outsider, 3600);
    const { id: siteId } = await createSite({ daily_allowance: 1000 });
    expect((await api.patch(`/api/v1/admin/sites/${siteId}`, { admin: true, body: { default_team_id: team.json.result.id } })).status).toBe(200);
    const started = await startConversation(siteId, { name: "Tina Team", body: "For the team only" });
    await eventually(() => expect(service.received.some((p) => p.payload.tag === started.conversationId && p.path === "/push/ana-phone")).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(service.received.filter((p) => p.payload.tag === started.conversationId && p.path === "/push/otto-phone")).toEqual([]);
  });
});

import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api, type ApiResponse } from "../support/api";
import { expectError } from "../support/expectations";
import { openConversation, startConversation, visitor, type Started } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { exceptActivity, stateSnapshot } from "../support/state-snapshot";

// Triage (issue 25 items 5–6; decisions.md round 3): snooze, staff-only timeline events,
// @mentions in notes, bulk actions and waiting time.

const CONVERSATIONS = "/api/v1/inbox/conversations";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let owner: Staff;
let agent: Staff;

beforeAll(async () => {
  owner = await createStaff("owner", "Ada Owner");
  agent = await createStaff("agent", "Ben Agent");
});

// The notification worker runs only where a test needs it: elsewhere its staff alerts would
// change the state that refused requests must leave alone.
async function withWorker(run: (worker: NotificationWorker) => Promise<void>): Promise<void> {
  const worker = await startNotificationWorker({ timings: { dispatchPollMs: 50, jobPollMs: 500 } });
  try {
    await run(worker);
  } finally {
    await worker.stop();
  }
}

const state = async () => exceptActivity(await stateSnapshot());
async function expectRefusedUnchanged(send: () => Promise<ApiResponse>, status: number, code: string): Promise<ApiResponse> {
  const before = await state();
  const response = await send();
  expectError(response, status, code);
  expect(await state()).toEqual(before);
  return response;
}

const snooze = (id: string, until: unknown, staff: Staff | null = agent, options = {}) =>
  api.post(`${CONVERSATIONS}/${id}/snooze`, as(staff, { body: { until }, ...options }));
const thread = async (id: string, staff: Staff = agent) => {
  const response = await api.get(`${CONVERSATIONS}/${id}`, as(staff));
  expect(response.status).toBe(200);
  return response.json.result as { status: string; snoozed_until: string | null; messages: { kind: string; event?: string; details?: Record<string, unknown>; mentions?: string[]; body: string }[] };
};
const events = async (id: string) => (await thread(id)).messages.filter((message) => message.kind === "note" && message.event);
const listIds = async (query: string, staff: Staff = agent) => {
  const response = await api.get(`${CONVERSATIONS}?${query}`, as(staff));
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return (response.json.result.items as { id: string }[]).map((item) => item.id);
};
const visitorSays = async (started: Started, body: string) => {
  const response = await api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { body, client_id: `c-${Math.random().toString(36).slice(2)}` } });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
};
const visitorReads = async (started: Started) => {
  const response = await api.get("/api/v1/chat/visitor/messages?cursor=0", visitor(started));
  expect(response.status).toBe(200);
  return response.json.result.items as { kind: string; event?: string; body: string }[];
};
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 8_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("snooze", () => {
  test("bad input → 400 naming `until`; no session → 401; wrong Origin → 403; unknown → 404; closed → 409; nothing changed", async () => {
    const started = await openConversation({ body: "Hi", client_id: "v1" });
    const id = started.conversationId;
    const future = new Date(Date.now() + 60 * MINUTE).toISOString();
    for (const bad of [new Date(Date.now() - MINUTE).toISOString(), new Date(Date.now() + 91 * DAY).toISOString(), "tomorrow", "2026-13-40T09:00:00Z", "2030-01-01T09:00:00", 1234, null]) {
      const response = await expectRefusedUnchanged(() => snooze(id, bad), 400, "invalid_request");
      expect(response.json.result.fields.map((field: { path: string }) => field.path), String(bad)).toContain("until");
    }
    await expectRefusedUnchanged(() => api.post(`${CONVERSATIONS}/${id}/snooze`, as(agent, { body: { until: future, extra: 1 } })), 400, "invalid_request");
    await expectRefusedUnchanged(() => snooze(id, future, null), 401, "unauthorized");
    await expectRefusedUnchanged(() => snooze(id, future, agent, { origin: "https://evil.example" }), 403, "origin_not_allowed");
    await expectRefusedUnchanged(() => snooze("no-such-conversation", future), 404, "conversation_not_found");
    expect((await api.post(`${CONVERSATIONS}/${id}/close`, as(agent))).status).toBe(200);
    await expectRefusedUnchanged(() => snooze(id, future), 409, "conversation_closed");
  });

  test("snoozed: out of the open list, in the snoozed one, with a `snoozed` event; the visitor writes → open again with `unsnoozed`", async () => {
    const started = await openConversation({ body: "Where is my order?", client_id: "v1" });
    const id = started.conversationId;
    const at = new Date(Date.now() + 2 * 60 * MINUTE);
    const snoozed = await snooze(id, at.toISOString());
    expect(snoozed.status, JSON.stringify(snoozed.json)).toBe(200);
    expect(snoozed.json.result).toEqual({ conversation_id: id, status: "snoozed", snoozed_until: at.toISOString() });
    expect(await listIds("status=open&limit=100")).not.toContain(id);
    expect(await listIds("status=snoozed&limit=100")).toContain(id);
    expect(await listIds("status=all&limit=100")).toContain(id);
    const [event] = await events(id);
    expect(event).toMatchObject({ event: "snoozed", details: { actorMemberId: agent.id, until: at.toISOString() } });

    // The visitor never sees `snoozed`, nor any staff event; they may write as to an open conversation.
    expect((await visitorReads(started)).every((message) => message.kind === "message" && !["snoozed", "unsnoozed"].includes(message.event ?? ""))).toBe(true);
    await visitorSays(started, "Any news?");
    const woken = await thread(id);
    expect(woken.status).toBe("open");
    expect(woken.snoozed_until).toBeNull();
    expect(woken.messages.filter((message) => message.event === "unsnoozed")).toEqual([
      expect.objectContaining({ kind: "note", details: expect.objectContaining({ reason: "visitor_message", actorMemberId: null }) }),
    ]);
    expect(await listIds("status=open&limit=100")).toContain(id);
    const read = await visitorReads(started);
    expect(read.map((message) => message.body)).toEqual(["Where is my order?", "Any news?"]);
  });

  test("a snoozed conversation opens by itself at its time (the queue's job), with `unsnoozed`", async () => {
    const { conversationId: id } = await openConversation({ body: "Call me back", client_id: "v1" });
    let woken = await thread(id);
    await withWorker(async () => {
      expect((await snooze(id, new Date(Date.now() + 1_500).toISOString())).status).toBe(200);
      expect((await thread(id)).status).toBe("snoozed");
      woken = await until(() => thread(id), (conversation) => conversation.status === "open");
    });
    expect(woken.status).toBe("open");
    expect(woken.messages.find((message) => message.event === "unsnoozed")?.details).toMatchObject({ reason: "time" });
  });

  test("a member unsnoozes; a staff reply keeps it snoozed; closing a snoozed one closes it", async () => {
    const started = await openConversation({ body: "Hello", client_id: "v1" });
    const id = started.conversationId;
    expect((await snooze(id, new Date(Date.now() + DAY).toISOString())).status).toBe(200);
    expect((await api.post(`${CONVERSATIONS}/${id}/messages`, as(agent, { body: { body: "We are on it" } }))).status).toBe(201);
    expect((await thread(id)).status).toBe("snoozed");
    const unsnoozed = await api.post(`${CONVERSATIONS}/${id}/unsnooze`, as(owner));
    expect(unsnoozed.json.result).toEqual({ conversation_id: id, status: "open", snoozed_until: null });
    expect((await events(id)).at(-1)).toMatchObject({ event: "unsnoozed", details: { actorMemberId: owner.id, reason: "member" } });
    expect((await snooze(id, new Date(Date.now() + DAY).toISOString())).status).toBe(200);
    expect((await api.post(`${CONVERSATIONS}/${id}/close`, as(agent))).status).toBe(200);
    expect(await thread(id)).toMatchObject({ status: "closed", snoozed_until: null });
  });

  test("the operator API snoozes too", async () => {
    const { conversationId: id } = await openConversation({ body: "Hi", client_id: "v1" });
    const response = await api.post(`/api/v1/admin/conversations/${id}/snooze`, { admin: true, body: { until: new Date(Date.now() + DAY).toISOString() } });
    expect(response.status).toBe(200);
    expect(response.json.result.status).toBe("snoozed");
    const read = await api.get(`/api/v1/admin/conversations/${id}`, { admin: true });
    expect(read.json.result.status).toBe("snoozed");
  });
});

describe("staff-only timeline events", () => {
  test("assign, labels and a rating each record an event in the inbox thread; the visitor's reads never carry one", async () => {
    const started = await openConversation({ body: "Hello", client_id: "v1" });
    const id = started.conversationId;
    expect((await api.post(`${CONVERSATIONS}/${id}/assign`, as(owner, { body: { member_id: agent.id } }))).status).toBe(200);
    // The same assignment again changes nothing and records nothing.
    expect((await api.post(`${CONVERSATIONS}/${id}/assign`, as(owner, { body: { member_id: agent.id } }))).status).toBe(200);
    const label = await api.post("/api/v1/inbox/labels", as(owner, { body: { name: `VIP ${Date.now()}`, color: "#aa3300" } }));
    expect((await api.put(`${CONVERSATIONS}/${id}/labels`, as(agent, { body: { labels: [label.json.result.id] } }))).status).toBe(200);
    expect((await api.post(`${CONVERSATIONS}/${id}/close`, as(agent))).status).toBe(200);
    const rated = await api.post("/api/v1/chat/visitor/rating", { ...visitor(started), body: { score: 5 } });
    expect(rated.status, JSON.stringify(rated.json)).toBe(201);

    const recorded = await events(id);
    expect(recorded.map((message) => message.event)).toEqual(["assigned", "labelled", "rated"]);
    expect(recorded[0]!.details).toMatchObject({ actorMemberId: owner.id, assigneeMemberId: agent.id, assigneeName: "Ben Agent" });
    expect(recorded[1]!.details).toMatchObject({ actorMemberId: agent.id, added: [label.json.result.name], removed: [] });
    expect(recorded[2]!.details).toMatchObject({ score: 5 });

    const seen = await visitorReads(started);
    expect(seen.every((message) => message.kind === "message")).toBe(true);
    expect(seen.map((message) => message.event).filter(Boolean)).toEqual(["conversation_closed"]);
    // Nothing leaves for webhooks or emails: the outbox only took public messages and the rating.
    const outbox = await (await db()).message.findMany({ where: { conversationId: id, kind: "note" }, select: { sequence: true, noteNumber: true } });
    expect(outbox.every((row) => row.noteNumber > 0)).toBe(true);
  });
});

describe("@mentions in notes", () => {
  test("a note mentions a member: listed in their mentions, emailed while they are away; bad mentions → 400, nothing changed", async () => {
    const { conversationId: id } = await openConversation({ body: "Refund please", client_id: "v1" });
    const away = await createStaff("agent", "Cleo Away");
    await expectRefusedUnchanged(() => api.post(`${CONVERSATIONS}/${id}/messages`, as(agent, { body: { body: "Hi @Cleo", mentions: [away.id] } })), 400, "invalid_request");
    const unknown = await expectRefusedUnchanged(
      () => api.post(`${CONVERSATIONS}/${id}/messages`, as(agent, { body: { body: "@who", kind: "note", mentions: [away.id, "nobody"] } })),
      400,
      "invalid_request",
    );
    expect(unknown.json.result.fields).toEqual([{ path: "mentions.1", problem: expect.any(String) }]);

    await (await db()).member.update({ where: { id: away.id }, data: { inboxActiveAt: null } });
    const note = await api.post(`${CONVERSATIONS}/${id}/messages`, as(agent, { body: { body: "@Cleo Away can you check the refund?", kind: "note", mentions: [away.id] } }));
    expect(note.status).toBe(201);
    expect(note.json.result.message.mentions).toEqual([away.id]);
    expect((await thread(id)).messages.find((message) => message.kind === "note" && !message.event)?.mentions).toEqual([away.id]);

    let emails: Awaited<ReturnType<Awaited<ReturnType<typeof db>>["email"]["findMany"]>> = [];
    await withWorker(async (worker) => {
      await worker.dispatchNow();
      emails = await until(
        async () => (await db()).email.findMany({ where: { kind: "staff_mention", memberId: away.id } }),
        (rows) => rows.length > 0,
      );
    });
    expect(emails).toEqual([expect.objectContaining({ recipient: away.email, conversationId: id })]);
    expect(emails[0]!.textBody).toContain("can you check the refund?");

    // Reading the inbox makes the member active again (no email after this): the list has the mention.
    const mentions = await api.get("/api/v1/inbox/mentions", as(away));
    expect(mentions.json.result.items).toEqual([
      expect.objectContaining({ conversation_id: id, message_id: note.json.result.message.id, author_name: "Ben Agent", excerpt: "@Cleo Away can you check the refund?" }),
    ]);
    expect((await api.get("/api/v1/inbox/mentions", as(owner))).json.result.items.map((item: { conversation_id: string }) => item.conversation_id)).not.toContain(id);

  });

  test("a member active in the inbox gets no email", async () => {
    const { conversationId: id } = await openConversation({ body: "Hi", client_id: "v1" });
    await api.get(CONVERSATIONS, as(owner)); // the owner has the inbox open
    await (await db()).member.update({ where: { id: owner.id }, data: { inboxActiveAt: new Date() } });
    expect((await api.post(`${CONVERSATIONS}/${id}/messages`, as(agent, { body: { body: "@Ada look", kind: "note", mentions: [owner.id] } }))).status).toBe(201);
    await withWorker(async (worker) => {
      await worker.dispatchNow();
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect(await (await db()).email.count({ where: { kind: "staff_mention", memberId: owner.id } })).toBe(0);
  });
});

describe("bulk actions", () => {
  test("close, assign and label answer per id; each act records its event", async () => {
    const site = (await openConversation({ body: "a", client_id: "v1" })).site;
    const first = await startConversation(site.id, { body: "one", client_id: "v1" });
    const second = await startConversation(site.id, { body: "two", client_id: "v1" });
    const ids = [first.conversationId, second.conversationId];

    const assigned = await api.post(`${CONVERSATIONS}/bulk`, as(agent, { body: { action: "assign", ids: [...ids, "missing"], member_id: agent.id } }));
    expect(assigned.status).toBe(200);
    expect(assigned.json.result).toEqual({
      action: "assign",
      results: [
        { id: ids[0], ok: true },
        { id: ids[1], ok: true },
        { id: "missing", ok: false, error: { code: "conversation_not_found", message: expect.any(String) } },
      ],
    });
    const label = await api.post("/api/v1/inbox/labels", as(owner, { body: { name: `Bulk ${Date.now()}`, color: "#112233" } }));
    const labelled = await api.post(`${CONVERSATIONS}/bulk`, as(agent, { body: { action: "label", ids, label_id: label.json.result.id } }));
    expect(labelled.json.result.results.every((result: { ok: boolean }) => result.ok)).toBe(true);
    const closed = await api.post(`${CONVERSATIONS}/bulk`, as(agent, { body: { action: "close", ids } }));
    expect(closed.json.result.results).toEqual(ids.map((id) => ({ id, ok: true })));
    for (const id of ids) {
      const conversation = await thread(id);
      expect(conversation.status).toBe("closed");
      expect(conversation.messages.filter((message) => message.kind === "note").map((message) => message.event)).toEqual(["assigned", "labelled"]);
    }
  });

  test("no session → 401, wrong Origin → 403, bad bodies → 400, unknown member or label → 404; nothing changed", async () => {
    const { conversationId: id } = await openConversation({ body: "a", client_id: "v1" });
    await expectRefusedUnchanged(() => api.post(`${CONVERSATIONS}/bulk`, as(null, { body: { action: "close", ids: [id] } })), 401, "unauthorized");
    await expectRefusedUnchanged(() => api.post(`${CONVERSATIONS}/bulk`, as(agent, { origin: "https://evil.example", body: { action: "close", ids: [id] } })), 403, "origin_not_allowed");
    for (const body of [
      { action: "close", ids: [] },
      { action: "close", ids: Array.from({ length: 101 }, (_, index) => `c${index}`) },
      { action: "delete", ids: [id] },
      { action: "assign", ids: [id] },
      { action: "label", ids: [id] },
      { action: "close", ids: [id], member_id: "x" },
    ]) {
      await expectRefusedUnchanged(() => api.post(`${CONVERSATIONS}/bulk`, as(agent, { body })), 400, "invalid_request");
    }
    await expectRefusedUnchanged(() => api.post(`${CONVERSATIONS}/bulk`, as(agent, { body: { action: "assign", ids: [id], member_id: "nobody" } })), 404, "member_not_found");
    await expectRefusedUnchanged(() => api.post(`${CONVERSATIONS}/bulk`, as(agent, { body: { action: "label", ids: [id], label_id: "nolabel" } })), 404, "not_found");
  });
});

describe("waiting time", () => {
  test("waiting_since is the visitor's oldest unanswered message; a staff reply clears it; sort=waiting puts the longest wait first", async () => {
    const { site, conversationId: oldest } = await openConversation({ body: "x", client_id: "v1" });
    const older = await startConversation(site.id, { body: "first", client_id: "v1" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const newer = await startConversation(site.id, { body: "second", client_id: "v1" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answered = await startConversation(site.id, { body: "third", client_id: "v1" });
    await visitorSays(older, "still there?");
    expect((await api.post(`${CONVERSATIONS}/${answered.conversationId}/messages`, as(agent, { body: { body: "Yes?" } }))).status).toBe(201);

    const page = await api.get(`${CONVERSATIONS}?site=${site.id}&sort=waiting&limit=3`, as(agent));
    expect(page.status).toBe(200);
    const items = page.json.result.items as { id: string; waiting_since: string | null; created_at: string }[];
    expect(items.map((item) => item.id)).toEqual([oldest, older.conversationId, newer.conversationId]);
    expect(items[0]!.waiting_since).toBe(items[0]!.created_at);
    const rest = await api.get(`${CONVERSATIONS}?site=${site.id}&sort=waiting&limit=3&cursor=${page.json.result.next_cursor}`, as(agent));
    expect(rest.json.result.items).toEqual([expect.objectContaining({ id: answered.conversationId, waiting_since: null })]);
    expect(rest.json.result.next_cursor).toBeNull();
    await expectRefusedUnchanged(() => api.get(`${CONVERSATIONS}?sort=oldest`, as(agent)), 400, "invalid_request");
  });
});

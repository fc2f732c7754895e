import { afterAll, afterEach, beforeEach, describe, expect, test } from "vitest";
import { db, separatePostgresExecutor, sqlExecutor, type SqlExecutor } from "../../lib/db/client";
import { assignRoundRobin, reassignWaiting } from "../../lib/conversations/routing";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { abortEventStreams, openEventStream } from "../support/event-stream";
import { expectError } from "../support/expectations";
import { createMember, createSite, staffReply, startConversation, visitor } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { testDatabaseUrl } from "../support/postgres";

// Availability and routing (issue #27 item 2; docs/routing.md), on PGlite and on PostgreSQL.

const pools: (SqlExecutor & { end(): Promise<void> })[] = [];
const workers: NotificationWorker[] = [];

afterEach(async () => {
  abortEventStreams();
  for (const worker of workers.splice(0)) await worker.stop();
});
afterAll(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

/** Nobody has a tab open: each test makes online exactly whom it needs. */
beforeEach(async () => {
  await (await db()).member.updateMany({ data: { inboxTabAt: null, inboxInputAt: null, away: false } });
});

/** What an open, recently used inbox tab leaves in the row (the stream's heartbeat and the tab's input). */
async function setOnline(...staff: Staff[]) {
  const now = new Date();
  await (await db()).member.updateMany({ where: { id: { in: staff.map((s) => s.id) } }, data: { inboxTabAt: now, inboxInputAt: now } });
}

async function availabilityOf(staff: Staff, owner: Staff): Promise<string> {
  const response = await api.get("/api/v1/inbox/members", as(owner));
  expect(response.status).toBe(200);
  return response.json.result.find((member: { id: string }) => member.id === staff.id).availability;
}

const setAvailability = (staff: Staff, body: unknown) => api.put("/api/v1/inbox/session/availability", as(staff, { body }));

async function roundRobinSite(settings: Record<string, unknown> = {}) {
  const site = await createSite();
  const response = await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { assignment: "round_robin", ...settings } });
  expect(response.status).toBe(200);
  return site;
}

async function setMaxOpen(staff: Staff, maxOpen: number) {
  expect((await api.patch(`/api/v1/admin/members/${staff.id}`, { admin: true, body: { max_open: maxOpen } })).status).toBe(200);
}

const assigneeOf = async (conversationId: string) =>
  (await (await db()).conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { assignedMemberId: true } })).assignedMemberId;

const timeline = async (conversationId: string, event: string) =>
  (await db()).message.findMany({ where: { conversationId, event }, select: { kind: true, authorType: true, body: true, details: true } });

/** A conversation of `site` assigned by hand to `staff` (not through round robin). */
async function assignedTo(siteId: string, staff: Staff, body = "Hello?") {
  const started = await startConversation(siteId, { body });
  const response = await api.post(`/api/v1/inbox/conversations/${started.conversationId}/assign`, as(staff, { body: { member_id: staff.id } }));
  expect(response.status).toBe(200);
  return started;
}

describe("availability", () => {
  test("offline without a tab, online while its stream is open, away by choice or when idle, online again on input", async () => {
    const owner = await createStaff("owner");
    const agent = await createStaff("agent");
    expect(await availabilityOf(agent, owner)).toBe("offline");

    const stream = await openEventStream(agent.cookie);
    expect(await stream.ready()).toBe(true);
    await expect.poll(() => availabilityOf(agent, owner)).toBe("online");

    const away = await setAvailability(agent, { availability: "away" });
    expect(away.status).toBe(200);
    expect(away.json.result).toEqual({ availability: "away" });
    expect(await availabilityOf(agent, owner)).toBe("away");
    expect((await setAvailability(agent, { availability: "online" })).json.result).toEqual({ availability: "online" });

    // Ten minutes (AWAY_AFTER_IDLE_MINUTES' default) without input in the tab: away; input brings the member back.
    await (await db()).member.update({ where: { id: agent.id }, data: { inboxInputAt: new Date(Date.now() - 11 * 60_000) } });
    expect(await availabilityOf(agent, owner)).toBe("away");
    const input = await api.post("/api/v1/inbox/session/activity", as(agent));
    expect(input.json.result).toEqual({ availability: "online" });

    // The tab closed: its heartbeat stops, and after three missed beats the member is offline.
    stream.abort();
    await (await db()).member.update({ where: { id: agent.id }, data: { inboxTabAt: new Date(Date.now() - 60_000) } });
    expect(await availabilityOf(agent, owner)).toBe("offline");
    const operatorList = await api.get("/api/v1/admin/members", { admin: true });
    expect(operatorList.json.result.find((member: { id: string }) => member.id === agent.id)).toMatchObject({ availability: "offline", max_open: 10 });
  });

  test.each([
    [{ availability: "offline" }, "availability"],
    [{ availability: "busy" }, "availability"],
    [{}, "availability"],
    [{ availability: "away", until: "later" }, "until"],
  ])("a bad availability %j is 400 naming the field, and nothing changes", async (body, field) => {
    const agent = await createStaff("agent");
    await setOnline(agent);
    const response = await setAvailability(agent, body);
    expectError(response, 400, "invalid_request");
    expect(JSON.stringify(response.json.result.fields)).toContain(field);
    expect((await (await db()).member.findUniqueOrThrow({ where: { id: agent.id } })).away).toBe(false);
  });

  test("availability needs a session", async () => {
    expectError(await setAvailability(null as unknown as Staff, { availability: "away" }), 401, "unauthorized");
  });
});

describe("round robin", () => {
  test("a new conversation goes to the least-loaded online member under their cap, ties to the longest since an assignment", async () => {
    const site = await roundRobinSite();
    const [a, b, capped, away, offline] = [await createStaff(), await createStaff(), await createStaff(), await createStaff(), await createStaff()];
    await setOnline(a, b, capped, away);
    await setAvailability(away, { availability: "away" });
    await setMaxOpen(capped, 1);
    const manual = await createSite();
    await assignedTo(manual.id, a);
    await assignedTo(manual.id, a);
    await assignedTo(manual.id, b);
    await assignedTo(manual.id, capped);

    const first = await startConversation(site.id, { body: "Anyone?" });
    expect(await assigneeOf(first.conversationId)).toBe(b.id); // b: 1 open; a: 2; capped: at its cap; away and offline skipped
    const second = await startConversation(site.id);
    expect(await assigneeOf(second.conversationId)).toBe(a.id); // a and b have 2 each: a waited longer
    const third = await startConversation(site.id);
    expect(await assigneeOf(third.conversationId)).toBe(b.id);
    expect([away.id, offline.id, capped.id]).not.toContain(await assigneeOf(third.conversationId));

    const events = await timeline(first.conversationId, "assigned");
    expect(events).toEqual([expect.objectContaining({ kind: "note", authorType: "system" })]);
    expect(events[0]!.details).toMatchObject({ assigneeMemberId: b.id, by: "round_robin" });
    const seen = await api.get("/api/v1/chat/visitor/messages", visitor(first));
    expect(seen.status).toBe(200);
    expect(JSON.stringify(seen.json.result)).not.toContain("assigned");
  });

  test("nobody eligible (all away, offline or at their cap): the conversation stays unassigned", async () => {
    const site = await roundRobinSite();
    const [full, away] = [await createStaff(), await createStaff()];
    await createStaff(); // offline
    await setOnline(full, away);
    await setAvailability(away, { availability: "away" });
    await setMaxOpen(full, 1);
    await assignedTo((await createSite()).id, full);
    const started = await startConversation(site.id, { body: "Hello" });
    expect(await assigneeOf(started.conversationId)).toBeNull();
    expect(await timeline(started.conversationId, "assigned")).toEqual([]);
  });

  test("a manual site assigns nothing, however many are online; closed conversations do not count against a cap", async () => {
    const [staff] = [await createStaff()];
    await setOnline(staff);
    const manual = await startConversation((await createSite()).id);
    expect(await assigneeOf(manual.conversationId)).toBeNull();

    await setMaxOpen(staff, 1);
    const done = await assignedTo((await createSite()).id, staff);
    expect((await api.post(`/api/v1/inbox/conversations/${done.conversationId}/close`, as(staff))).status).toBe(200);
    const next = await startConversation((await roundRobinSite()).id);
    expect(await assigneeOf(next.conversationId)).toBe(staff.id);
  });
});

describe("reassign after minutes without a human reply", () => {
  /** Moves the conversation's messages and assignment `minutes` into the past. */
  async function age(conversationId: string, minutes: number) {
    const prisma = await db();
    await prisma.$executeRawUnsafe(`UPDATE messages SET created_at = created_at - make_interval(mins => $2) WHERE conversation_id = $1`, conversationId, minutes);
    await prisma.$executeRawUnsafe(`UPDATE conversations SET assigned_at = assigned_at - make_interval(mins => $2) WHERE id = $1`, conversationId, minutes);
  }

  test("a visitor waiting longer than reassign_after_minutes moves to the next eligible member, with a staff-only timeline event", async () => {
    const site = await roundRobinSite({ reassign_after_minutes: 5 });
    const [first, second] = [await createStaff(), await createStaff()];
    await setOnline(first, second);
    const started = await assignedTo(site.id, first, "Is anyone there?");

    await age(started.conversationId, 4);
    expect(await reassignWaiting()).toBe(0); // 4 minutes: not yet
    await age(started.conversationId, 2);
    expect(await reassignWaiting()).toBe(1);
    expect(await assigneeOf(started.conversationId)).toBe(second.id);
    const [event] = await timeline(started.conversationId, "reassigned");
    expect(event).toMatchObject({ kind: "note", authorType: "system" });
    expect(event!.details).toMatchObject({ previousMemberId: first.id, assigneeMemberId: second.id });
    expect(JSON.stringify((await api.get("/api/v1/chat/visitor/messages", visitor(started))).json.result)).not.toContain("reassigned");

    // The new assignee has the full wait too.
    expect(await reassignWaiting()).toBe(0);
  });

  test("a human reply stops the clock; a bot's does not; nobody else eligible leaves it where it is; off by default", async () => {
    const site = await roundRobinSite({ reassign_after_minutes: 5 });
    const [first, second] = [await createStaff(), await createStaff()];
    await setOnline(first, second);

    const answered = await assignedTo(site.id, first);
    await staffReply(answered.conversationId, first.id, "On it");
    await age(answered.conversationId, 30);
    const botAnswered = await assignedTo(site.id, first);
    const bot = await createMember({ picture: false, name: "Helper bot" });
    await api.patch(`/api/v1/admin/members/${bot.id}`, { admin: true, body: { bot: true } });
    await staffReply(botAnswered.conversationId, bot.id, "A bot says hi");
    await age(botAnswered.conversationId, 30);
    const offSite = await createSite();
    const off = await assignedTo(offSite.id, first);
    await age(off.conversationId, 30);

    expect(await reassignWaiting()).toBe(1);
    expect(await assigneeOf(answered.conversationId)).toBe(first.id);
    expect(await assigneeOf(botAnswered.conversationId)).toBe(second.id);
    expect(await assigneeOf(off.conversationId)).toBe(first.id);

    // Only the current assignee is online: it stays.
    await (await db()).member.update({ where: { id: first.id }, data: { inboxTabAt: null } });
    await age(botAnswered.conversationId, 30);
    expect(await reassignWaiting()).toBe(0);
    expect(await assigneeOf(botAnswered.conversationId)).toBe(second.id);
  });

  test("the notification worker runs the sweep as a periodic job", async () => {
    const site = await roundRobinSite({ reassign_after_minutes: 1 });
    const [first, second] = [await createStaff(), await createStaff()];
    await setOnline(first, second);
    const started = await assignedTo(site.id, first);
    await age(started.conversationId, 2);
    workers.push(await startNotificationWorker({ timings: { reassignSweepMs: 200 } }));
    await expect.poll(() => assigneeOf(started.conversationId), { timeout: 10_000 }).toBe(second.id);
    // The timeline note follows the move's commit.
    await expect.poll(async () => (await timeline(started.conversationId, "reassigned")).length, { timeout: 10_000 }).toBe(1);
  });
});

describe("settings", () => {
  test.each([
    [{ assignment: "random" }, "assignment"],
    [{ reassign_after_minutes: 0 }, "reassign_after_minutes"],
    [{ reassign_after_minutes: 1441 }, "reassign_after_minutes"],
    [{ reassign_after_minutes: 2.5 }, "reassign_after_minutes"],
  ])("a bad site setting %j is 400 naming the field, and nothing changes", async (body, field) => {
    const site = await roundRobinSite({ reassign_after_minutes: 30 });
    const response = await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body });
    expectError(response, 400, "invalid_request");
    expect(JSON.stringify(response.json.result.fields)).toContain(field);
    const after = (await api.get("/api/v1/admin/sites", { admin: true })).json.result.find((s: { id: string }) => s.id === site.id);
    expect(after).toMatchObject({ assignment: "round_robin", reassign_after_minutes: 30 });
  });

  test("owners set sites' routing and members' max_open in the inbox; agents may not; bad caps are 400", async () => {
    const owner = await createStaff("owner");
    const agent = await createStaff("agent");
    const site = await createSite();
    const patchSite = (staff: Staff, body: unknown) => api.patch(`/api/v1/inbox/sites/${site.id}`, as(staff, { body }));
    expectError(await patchSite(agent, { assignment: "round_robin" }), 403, "forbidden");
    const saved = await patchSite(owner, { assignment: "round_robin", reassign_after_minutes: 15 });
    expect(saved.json.result).toMatchObject({ assignment: "round_robin", reassign_after_minutes: 15 });
    expect((await patchSite(owner, { reassign_after_minutes: null })).json.result.reassign_after_minutes).toBeNull();

    const patchMember = (staff: Staff, body: unknown) => api.patch(`/api/v1/inbox/members/${agent.id}`, as(staff, { body }));
    expectError(await patchMember(agent, { max_open: 3 }), 403, "forbidden");
    expect((await patchMember(owner, { max_open: 3 })).json.result).toMatchObject({ max_open: 3 });
    for (const max_open of [0, 1001, "5", null]) {
      const refused = await patchMember(owner, { max_open });
      expectError(refused, 400, "invalid_request");
      expect(JSON.stringify(refused.json.result.fields)).toContain("max_open");
    }
    expectError(await api.patch(`/api/v1/admin/members/${agent.id}`, { admin: true, body: { max_open: 0 } }), 400, "invalid_request");
    expect((await (await db()).member.findUniqueOrThrow({ where: { id: agent.id } })).maxOpen).toBe(3);
  });
});

describe("two instances assigning at once", () => {
  test("never exceed a cap and never both take one conversation", async () => {
    const onPostgres = Boolean(testDatabaseUrl());
    const instance = async () => {
      if (!onPostgres) return sqlExecutor();
      const pool = separatePostgresExecutor(process.env.DATABASE_URL!, 8);
      pools.push(pool);
      return pool;
    };
    const [one, two] = [await instance(), await instance()];
    const staff = [await createStaff(), await createStaff(), await createStaff()];
    await setOnline(...staff);
    const caps = [3, 3, 4];
    for (const [i, member] of staff.entries()) await setMaxOpen(member, caps[i]!);
    const site = await createSite(); // manual: the racing instances below do the assigning
    const conversations = await Promise.all(Array.from({ length: 24 }, () => startConversation(site.id)));

    // Each conversation is offered to both instances at once: 48 racing assignments for 10 places.
    const results = await Promise.all(
      conversations.flatMap(({ conversationId }) => [assignRoundRobin(conversationId, { executor: one }), assignRoundRobin(conversationId, { executor: two })]),
    );
    expect(results.filter((memberId) => memberId !== null)).toHaveLength(10);
    const prisma = await db();
    for (const [i, member] of staff.entries()) {
      expect(await prisma.conversation.count({ where: { assignedMemberId: member.id, status: "open" } })).toBe(caps[i]);
    }
    const assigned = await prisma.message.count({ where: { event: "assigned", conversation: { siteId: site.id } } });
    expect(assigned).toBe(10);
  });
});

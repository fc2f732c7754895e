import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { sweepSla } from "../../lib/notifications/sla-sweep";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { GET as csvRoute } from "../../app/api/v1/inbox/reports.csv/route";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, startConversation, visitor, type Started } from "../support/fixtures";
import { as, createStaff, INBOX_ORIGIN, type Staff } from "../support/inbox";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// SLA policies (decisions.md, round 4, "SLA policies"; docs/sla.md): owners' routes, the clock on
// staff reads, the list's sort and filters, and a breach by a real one-minute policy. The clock's
// arithmetic (hours, holidays, DST, snoozes) is tested without a database in lib/sla/compute.test.ts.

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on"; // the receiver listens on 127.0.0.1

const INBOX = "/api/v1/inbox";
let owner: Staff, agent: Staff;

beforeAll(async () => {
  [owner, agent] = [await createStaff("owner", "Olive Owner"), await createStaff("agent", "Andy Agent")];
});

interface WireSla {
  policy_id: string;
  first_response_due_at: string | null;
  next_response_due_at: string | null;
  resolution_due_at: string | null;
  breaches: { kind: string; at: string; why: string }[];
}

async function policy(body: Record<string, unknown>) {
  const response = await api.post(`${INBOX}/sla-policies`, as(owner, { body }));
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.result as { id: string; position: number } & Record<string, unknown>;
}

async function slaOf(conversationId: string): Promise<WireSla | null> {
  const response = await api.get(`${INBOX}/conversations/${conversationId}`, as(owner));
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json.result.sla;
}

async function listed(query: string): Promise<{ id: string; sla: WireSla | null }[]> {
  const response = await api.get(`${INBOX}/conversations?${query}`, as(owner));
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json.result.items;
}

const say = (started: Started, body: string) =>
  api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { body, client_id: `v_${Math.random()}` } });
const reply = (conversationId: string, body = "On it") => api.post(`${INBOX}/conversations/${conversationId}/messages`, as(agent, { body: { body } }));
const minutesAfter = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();
const createdAt = async (conversationId: string) =>
  (await (await db()).message.findFirstOrThrow({ where: { conversationId, authorType: "visitor" }, orderBy: { sequence: "desc" } })).createdAt.toISOString();

describe("the owners' routes", () => {
  test("owners create, list in order, change, move and delete policies; agents may not", async () => {
    const site = await createSite();
    const first = await policy({ name: "Gold", first_response_minutes: 15, next_response_minutes: 30, resolution_minutes: 480, business_hours: true, sites: [site.id] });
    expect(first).toMatchObject({ name: "Gold", first_response_minutes: 15, next_response_minutes: 30, resolution_minutes: 480, business_hours: true, sites: [site.id], teams: [], labels: [] });
    const second = await policy({ name: "Anything" });
    expect(second).toMatchObject({ first_response_minutes: null, next_response_minutes: null, resolution_minutes: null, business_hours: false, sites: [], position: first.position + 1 });
    const moved = await api.patch(`${INBOX}/sla-policies/${second.id}`, as(owner, { body: { position: 0, resolution_minutes: 60 } }));
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    expect(moved.json.result).toMatchObject({ position: 0, resolution_minutes: 60 });
    const list = await api.get(`${INBOX}/sla-policies`, as(owner));
    expect(list.json.result.map((row: { id: string }) => row.id).slice(0, 2)).toEqual([second.id, first.id]);
    expectError(await api.get(`${INBOX}/sla-policies`, as(agent)), 403, "forbidden");
    expectError(await api.post(`${INBOX}/sla-policies`, as(agent, { body: { name: "Mine" } })), 403, "forbidden");
    expectError(await api.patch(`${INBOX}/sla-policies/${first.id}`, as(agent, { body: { name: "Mine" } })), 403, "forbidden");
    expect((await api.delete(`${INBOX}/sla-policies/${second.id}`, as(owner))).json.result).toEqual({ id: second.id, deleted: true });
    expectError(await api.delete(`${INBOX}/sla-policies/${second.id}`, as(owner)), 404, "not_found");
    expectError(await api.patch(`${INBOX}/sla-policies/sla_missing`, as(owner, { body: { name: "x" } })), 404, "not_found");
    await api.delete(`${INBOX}/sla-policies/${first.id}`, as(owner));
  });

  test("bad input is 400 and saves nothing", async () => {
    const before = (await api.get(`${INBOX}/sla-policies`, as(owner))).json.result.length;
    for (const body of [
      {},
      { name: "" },
      { name: "Zero", first_response_minutes: 0 },
      { name: "Huge", resolution_minutes: 100_001 },
      { name: "Text", next_response_minutes: "15" },
      { name: "Fraction", first_response_minutes: 1.5 },
      { name: "Hours", business_hours: "yes" },
      { name: "Sites", sites: "all" },
      { name: "Twice", labels: ["lb_1", "lb_1"] },
      { name: "Extra", priority: 1 },
      { name: { not: "" } },
    ]) {
      expectError(await api.post(`${INBOX}/sla-policies`, as(owner, { body })), 400, "invalid_request");
    }
    const unknown = await api.post(`${INBOX}/sla-policies`, as(owner, { body: { name: "Ghost", teams: ["tm_nobody"] } }));
    expectError(unknown, 400, "invalid_request");
    expect(unknown.json.result.fields).toEqual([{ path: "teams.0", problem: expect.any(String) }]);
    const made = await policy({ name: "Keep", sites: [(await createSite()).id] });
    expectError(await api.patch(`${INBOX}/sla-policies/${made.id}`, as(owner, { body: {} })), 400, "invalid_request");
    expectError(await api.patch(`${INBOX}/sla-policies/${made.id}`, as(owner, { body: { first_response_minutes: -1 } })), 400, "invalid_request");
    expectError(await api.patch(`${INBOX}/sla-policies/${"x".repeat(101)}`, as(owner, { body: { name: "x" } })), 400, "invalid_request");
    expect((await api.get(`${INBOX}/sla-policies`, as(owner))).json.result.length).toBe(before + 1);
    await api.delete(`${INBOX}/sla-policies/${made.id}`, as(owner));
  });
});

describe("the clock on staff reads", () => {
  test("first response, next response and resolution due times follow replies and the close", async () => {
    const site = await createSite();
    const other = await createSite();
    const gold = await policy({ name: "Clock", first_response_minutes: 15, next_response_minutes: 10, resolution_minutes: 240, sites: [site.id] });
    const chat = await startConversation(site.id, { body: "hello", client_id: "v1" });
    const elsewhere = await startConversation(other.id, { body: "hello", client_id: "v1" });
    const asked = await createdAt(chat.conversationId);
    expect(await slaOf(chat.conversationId)).toEqual({
      policy_id: gold.id,
      first_response_due_at: minutesAfter(asked, 15),
      next_response_due_at: null,
      resolution_due_at: minutesAfter(asked, 240),
      breaches: [],
    });
    expect(await slaOf(elsewhere.conversationId)).toBeNull();
    const [item] = (await listed(`site=${site.id}`)).filter((row) => row.id === chat.conversationId);
    expect(item!.sla).toMatchObject({ policy_id: gold.id, first_response_due_at: minutesAfter(asked, 15) });

    expect((await reply(chat.conversationId)).status).toBe(201);
    expect(await slaOf(chat.conversationId)).toMatchObject({ first_response_due_at: null, next_response_due_at: null });
    expect((await say(chat, "one more thing")).status).toBe(201);
    const again = await createdAt(chat.conversationId);
    expect((await slaOf(chat.conversationId))!.next_response_due_at).toBe(minutesAfter(again, 10));

    expect((await api.post(`${INBOX}/conversations/${chat.conversationId}/close`, as(agent))).status).toBe(200);
    expect(await slaOf(chat.conversationId)).toMatchObject({ first_response_due_at: null, next_response_due_at: null, resolution_due_at: null, breaches: [] });
    await api.delete(`${INBOX}/sla-policies/${gold.id}`, as(owner));
  });

  test("snoozed time does not count: a snooze pushes the due time past its end, an early unsnooze brings it back", async () => {
    const site = await createSite();
    const quick = await policy({ name: "Snooze", first_response_minutes: 15, sites: [site.id] });
    const chat = await startConversation(site.id, { body: "hello", client_id: "v1" });
    const asked = await createdAt(chat.conversationId);
    expect((await slaOf(chat.conversationId))!.first_response_due_at).toBe(minutesAfter(asked, 15));
    const until = new Date(Date.now() + 60 * 60_000);
    expect((await api.post(`${INBOX}/conversations/${chat.conversationId}/snooze`, as(agent, { body: { until: until.toISOString() } }))).status).toBe(200);
    const snoozed = Date.parse((await slaOf(chat.conversationId))!.first_response_due_at!);
    expect(snoozed).toBeGreaterThan(until.getTime() + 14 * 60_000); // at most a few seconds passed before the snooze
    expect(snoozed).toBeLessThanOrEqual(until.getTime() + 15 * 60_000);
    expect((await api.post(`${INBOX}/conversations/${chat.conversationId}/unsnooze`, as(agent))).status).toBe(200);
    const woken = Date.parse((await slaOf(chat.conversationId))!.first_response_due_at!);
    expect(woken).toBeLessThan(Date.parse(minutesAfter(asked, 16)));
    expect(woken).toBeGreaterThanOrEqual(Date.parse(minutesAfter(asked, 15)));
    await api.delete(`${INBOX}/sla-policies/${quick.id}`, as(owner));
  });

  test("the first policy in list order that matches applies: labels and teams narrow it", async () => {
    const site = await createSite();
    const label = (await api.post(`${INBOX}/labels`, as(owner, { body: { name: `VIP ${Date.now()}`, color: "#aa0000" } }))).json.result;
    const vip = await policy({ name: "VIP", first_response_minutes: 5, sites: [site.id], labels: [label.id] });
    const rest = await policy({ name: "Everyone else", first_response_minutes: 60, sites: [site.id] });
    const chat = await startConversation(site.id, { body: "hello", client_id: "v1" });
    expect((await slaOf(chat.conversationId))!.policy_id).toBe(rest.id);
    expect((await api.put(`${INBOX}/conversations/${chat.conversationId}/labels`, as(agent, { body: { labels: [label.id] } }))).status).toBe(200);
    expect((await slaOf(chat.conversationId))!.policy_id).toBe(vip.id);
    const team = (await api.post(`${INBOX}/teams`, as(owner, { body: { name: `SLA team ${Date.now()}` } }))).json.result;
    expect((await api.patch(`${INBOX}/sla-policies/${vip.id}`, as(owner, { body: { teams: [team.id] } }))).status).toBe(200);
    expect((await slaOf(chat.conversationId))!.policy_id).toBe(rest.id); // labelled, but in no team
    await api.delete(`${INBOX}/sla-policies/${vip.id}`, as(owner));
    await api.delete(`${INBOX}/sla-policies/${rest.id}`, as(owner));
    expect(await slaOf(chat.conversationId)).toBeNull();
  });

  test("the list sorts by the soonest due time and filters breached and due soon", async () => {
    const site = await createSite();
    const slow = await policy({ name: "Slow", first_response_minutes: 600, sites: [site.id] });
    const soon = await startConversation(site.id, { body: "first", client_id: "v1" });
    const later = await startConversation(site.id, { body: "second", client_id: "v1" });
    const none = await startConversation(site.id, { body: "third", client_id: "v1" });
    await reply(none.conversationId); // answered: nothing due
    // A faster target for one of them, by label.
    const label = (await api.post(`${INBOX}/labels`, as(owner, { body: { name: `Fast ${Date.now()}`, color: "#00aa00" } }))).json.result;
    const fast = await policy({ name: "Fast", first_response_minutes: 10, sites: [site.id], labels: [label.id], resolution_minutes: null });
    await api.patch(`${INBOX}/sla-policies/${fast.id}`, as(owner, { body: { position: 0 } }));
    await api.put(`${INBOX}/conversations/${soon.conversationId}/labels`, as(agent, { body: { labels: [label.id] } }));
    const sorted = (await listed(`site=${site.id}&sort=sla`)).map((row) => row.id);
    expect(sorted).toEqual([soon.conversationId, later.conversationId, none.conversationId]);
    expect((await listed(`site=${site.id}&sla=due_soon`)).map((row) => row.id)).toEqual([soon.conversationId]);
    expect(await listed(`site=${site.id}&sla=breached`)).toEqual([]);
    // Paging by the sort's cursor keeps the order.
    const page = await api.get(`${INBOX}/conversations?site=${site.id}&sort=sla&limit=1`, as(owner));
    const next = await api.get(`${INBOX}/conversations?site=${site.id}&sort=sla&limit=5&cursor=${page.json.result.next_cursor}`, as(owner));
    expect(next.json.result.items.map((row: { id: string }) => row.id)).toEqual([later.conversationId, none.conversationId]);

    // Eleven minutes on, by the sweep's fake clock: the fast one is breached, with its sentence.
    await sweepSla(new Date(Date.now() + 11 * 60_000));
    expect((await listed(`site=${site.id}&sla=breached`)).map((row) => row.id)).toEqual([soon.conversationId]);
    const breached = await slaOf(soon.conversationId);
    expect(breached!.breaches).toEqual([{ kind: "first_response", at: breached!.first_response_due_at, why: "waited 10 min (target 10 min)" }]);
    expectError(await api.get(`${INBOX}/conversations?sla=late`, as(owner)), 400, "invalid_request");
    expectError(await api.get(`${INBOX}/conversations?sort=due`, as(owner)), 400, "invalid_request");
    for (const id of [fast.id, slow.id]) await api.delete(`${INBOX}/sla-policies/${id}`, as(owner));
  });
});

describe("a conversation whose computation fails", () => {
  test("is set aside (its mark dropped, looked at again in an hour): the others' clocks, staff reads and the sweep go on", async () => {
    const site = await createSite();
    const clock = await policy({ name: "Poisoned", first_response_minutes: 15, sites: [site.id] });
    const good = await startConversation(site.id, { body: "hello", client_id: "v1" });
    const bad = await startConversation(site.id, { body: "hello", client_id: "v1" });
    // A failure only this conversation's computation meets: its outcomes' insert.
    const sql = await db();
    await sql.$executeRawUnsafe(`CREATE FUNCTION sla_test_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.conversation_id = '${bad.conversationId}' THEN RAISE EXCEPTION 'poisoned'; END IF; RETURN NEW; END $$`);
    await sql.$executeRawUnsafe(`CREATE TRIGGER sla_test_poison BEFORE INSERT ON sla_outcomes FOR EACH ROW EXECUTE FUNCTION sla_test_poison()`);
    try {
      const before = Date.now();
      // The list computes the marked conversations before it reads: one failing is no 500 for everyone.
      const rows = await listed(`site=${site.id}`);
      expect(rows.find((row) => row.id === good.conversationId)!.sla).toMatchObject({ policy_id: clock.id });
      expect(rows.find((row) => row.id === bad.conversationId)!.sla).toBeNull();
      const aside = await sql.conversation.findUniqueOrThrow({ where: { id: bad.conversationId }, select: { slaCheckAt: true, slaStale: true } });
      expect(aside.slaStale).toBeNull();
      expect(aside.slaCheckAt!.getTime()).toBeGreaterThanOrEqual(before + 59 * 60_000);
      // The sweep does not meet it again before then, and finishes.
      await expect(sweepSla(new Date(Date.now() + 11 * 60_000))).resolves.toMatchObject({ breaches: 0 });
    } finally {
      await sql.$executeRawUnsafe(`DROP TRIGGER sla_test_poison ON sla_outcomes`);
      await sql.$executeRawUnsafe(`DROP FUNCTION sla_test_poison()`);
      await api.delete(`${INBOX}/sla-policies/${clock.id}`, as(owner));
    }
  });
});

describe("beside the writes", () => {
  test("sends, label changes, list reads and sweeps at once: every request succeeds and the clock ends up computed", { timeout: 120_000 }, async () => {
    const site = await createSite();
    const busy = await policy({ name: "Busy", first_response_minutes: 30, next_response_minutes: 30, sites: [site.id] });
    const label = (await api.post(`${INBOX}/labels`, as(owner, { body: { name: `Busy ${Date.now()}`, color: "#334455" } }))).json.result;
    const chats = [];
    for (let i = 0; i < 6; i++) chats.push(await startConversation(site.id, { body: `hello ${i}`, client_id: "v1" }));
    const statuses = await Promise.all([
      ...chats.flatMap((chat, i) => [
        say(chat, `more ${i}`).then((response) => response.status),
        reply(chat.conversationId).then((response) => response.status),
        api.put(`${INBOX}/conversations/${chat.conversationId}/labels`, as(agent, { body: { labels: [label.id] } })).then((response) => response.status),
      ]),
      ...Array.from({ length: 4 }, () => api.get(`${INBOX}/conversations?site=${site.id}&sort=sla`, as(owner)).then((response) => response.status)),
      sweepSla().then(() => 200),
      sweepSla().then(() => 200),
    ]);
    expect(new Set(statuses)).toEqual(new Set([200, 201]));
    await sweepSla();
    for (const chat of chats) expect((await slaOf(chat.conversationId))!.policy_id).toBe(busy.id);
    expect(await (await db()).slaStaleConversation.count({ where: { conversationId: { in: chats.map((chat) => chat.conversationId) } } })).toBe(0);
    await api.delete(`${INBOX}/sla-policies/${busy.id}`, as(owner));
  });
});

describe("the reports", () => {
  test("% of SLAs met per policy, team and member, and per cycle in the CSV", async () => {
    const site = await createSite();
    const target = await policy({ name: `Report ${Date.now()}`, first_response_minutes: 10, sites: [site.id] });
    const kept = await startConversation(site.id, { body: "quick one", client_id: "v1" });
    const missed = await startConversation(site.id, { body: "slow one", client_id: "v1" });
    expect((await api.post(`${INBOX}/conversations/${missed.conversationId}/assign`, as(owner, { body: { member_id: agent.id } }))).status).toBe(200);
    expect((await reply(kept.conversationId)).status).toBe(201); // the agent answers in time
    await sweepSla(new Date(Date.now() + 11 * 60_000)); // the other one is not answered in ten minutes

    const today = new Date().toISOString().slice(0, 10);
    const response = await api.get(`${INBOX}/reports?site=${site.id}&from=${today}&to=${today}`, as(owner));
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json.result.sla).toEqual({
      met: 1,
      missed: 1,
      percent_met: 50,
      by_policy: [{ key: target.id, label: target.name, met: 1, missed: 1, percent_met: 50 }],
      by_team: [{ key: null, label: "No team", met: 1, missed: 1, percent_met: 50 }],
      // The reply credits the agent who sent it; the miss, nobody having replied, the assignee.
      by_member: [{ key: agent.id, label: "Andy Agent", met: 1, missed: 1, percent_met: 50 }],
    });
    const mine = await api.get(`${INBOX}/reports?site=${site.id}&from=${today}&to=${today}&member=${owner.id}`, as(owner));
    expect(mine.json.result.sla).toMatchObject({ met: 0, missed: 0, percent_met: null });

    const csv = await (await csvRoute(new Request(`${INBOX_ORIGIN}${INBOX}/reports.csv?site=${site.id}&from=${today}&to=${today}`, { headers: { Cookie: owner.cookie } }), { params: Promise.resolve({}) })).text();
    const [header, ...rows] = csv.trimEnd().split("\r\n");
    const columns = header!.split(",");
    const cells = rows.map((row) => Object.fromEntries(row.split(",").map((value, index) => [columns[index], value])));
    const of = (id: string) => cells.find((row) => row.conversation_id === id);
    expect(of(kept.conversationId)).toMatchObject({ sla_policy_id: target.id, sla_first_response_met: "yes", sla_next_response_met: "", sla_resolution_met: "" });
    expect(of(missed.conversationId)).toMatchObject({ sla_policy_id: target.id, sla_first_response_met: "no" });
    await api.delete(`${INBOX}/sla-policies/${target.id}`, as(owner));
  });
});

describe("a breach, by a real one-minute policy", () => {
  let receiver: WebhookReceiver;
  let worker: NotificationWorker;
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    worker = await startNotificationWorker({ timings: { dispatchPollMs: 50, webhookTimeoutMs: 3_000, webhookRetryScheduleMs: [], slaSweepMs: 500 } });
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver.stop();
  });

  test("adds the staff timeline event, fires the webhook and emails the assignee, once", { timeout: 150_000 }, async () => {
    const hook = await api.post(`${INBOX}/webhooks`, as(owner, { body: { url: receiver.url, events: ["sla.breached"] } }));
    expect(hook.status, JSON.stringify(hook.json)).toBe(201);
    receiver.useSecret(hook.json.result.secret);
    const site = await createSite();
    const minute = await policy({ name: "One minute", first_response_minutes: 1, sites: [site.id] });
    // The rules' sla.breached event hears it too (through the outbox, after the breach's commit).
    const overdue = (await api.post(`${INBOX}/labels`, as(owner, { body: { name: "Overdue", color: "#aa3333" } }))).json.result.id as string;
    const rule = await api.post(`${INBOX}/rules`, as(owner, { body: { name: "Mark overdue", event: "sla.breached", conditions: [{ field: "site", op: "eq", value: site.id }], actions: [{ type: "add_label", label_id: overdue }] } }));
    expect(rule.status, JSON.stringify(rule.json)).toBe(201);
    const chat = await startConversation(site.id, { body: "anyone there?", client_id: "v1" });
    expect((await api.post(`${INBOX}/conversations/${chat.conversationId}/assign`, as(owner, { body: { member_id: agent.id } }))).status).toBe(200);
    const asked = await createdAt(chat.conversationId);

    const delivered = await eventually(() => {
      const found = receiver.received.find((request) => request.payload.type === "sla.breached" && request.payload.data.conversation_id === chat.conversationId);
      if (!found) throw new Error("no sla.breached yet");
      return found;
    }, 120_000, 250);
    expect(delivered.verified).toBe(true);
    expect(delivered.payload.data).toEqual({
      conversation_id: chat.conversationId,
      site_id: site.id,
      policy_id: minute.id,
      breach: { kind: "first_response", at: minutesAfter(asked, 1), why: "waited 1 min (target 1 min)" },
    });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(asked) + 60_000);

    const read = await api.get(`${INBOX}/conversations/${chat.conversationId}`, as(owner));
    const lines = read.json.result.messages.filter((message: { event?: string }) => message.event === "sla_breached");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ kind: "note", details: { kind: "first_response", why: "waited 1 min (target 1 min)" } });
    expect(read.json.result.sla.breaches).toEqual([{ kind: "first_response", at: minutesAfter(asked, 1), why: "waited 1 min (target 1 min)" }]);
    const labelled = await eventually(async () => {
      const labels = (await api.get(`${INBOX}/conversations/${chat.conversationId}`, as(owner))).json.result.labels as { id: string }[];
      if (!labels.some((label) => label.id === overdue)) throw new Error("not labelled yet");
      return labels;
    });
    expect(labelled.map((label) => label.id)).toEqual([overdue]);
    // The assignee has no push subscription: an email.
    const email = await eventually(async () => (await (await db()).email.findFirstOrThrow({ where: { conversationId: chat.conversationId, kind: "staff_sla_breach" } })));
    expect(email.memberId).toBe(agent.id);
    // Later sweeps record nothing more.
    await sweepSla();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const again = await api.get(`${INBOX}/conversations/${chat.conversationId}`, as(owner));
    expect(again.json.result.messages.filter((message: { event?: string }) => message.event === "sla_breached")).toHaveLength(1);
    expect(receiver.received.filter((request) => request.payload.type === "sla.breached" && request.payload.data.conversation_id === chat.conversationId)).toHaveLength(1);
    expect((await api.get(`${INBOX}/rules/${rule.json.result.id}/runs`, as(owner))).json.result).toHaveLength(1);
    await api.delete(`${INBOX}/sla-policies/${minute.id}`, as(owner));
  });
});

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type PgBoss from "pg-boss";
import { db, sqlExecutor, type SqlQuery } from "../../lib/db/client";
import { runDeliveryRound } from "../../lib/notifications/round";
import { addJobs, createBoss, ensureQueues, type JobSpec } from "../../lib/jobs/queue";
import { DEFAULT_TIMINGS } from "../../lib/jobs/timings";
import { checkIdleRules, enqueueRuleEvent, runRuleJobs } from "../../lib/rules/rule-events";
import { RULES_BOT_ID } from "../../lib/rules/actions";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, startConversation, visitor, type Started } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { exceptActivity, stateSnapshot } from "../support/state-snapshot";

// Rules (decisions.md, round 4, "Rules"; docs/rules.md): owners write them; each event, condition
// type and action on a real database; the dry run changes nothing; a rule's own actions are not
// events for rules, and a rule runs once per event; a failing action is written in the run; a
// ReDoS-shaped glob against a long message stays fast; bad input is 400 and saves nothing.

const INBOX = "/api/v1/inbox";
let owner: Staff, agent: Staff, salesAgent: Staff;
let sales: { id: string; name: string };
let labelSales: string, labelVip: string, labelFollowUp: string;
let teamReply: string;

async function ok<T = any>(response: { status: number; json: any }, status = 200): Promise<T> {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  return response.json.result as T;
}

const createRule = async (body: Record<string, unknown>) => ok(await api.post(`${INBOX}/rules`, as(owner, { body })), 201);
const runsOf = async (ruleId: string) => ok<{ at: string; conversation_id: string; actions: { type: string; ok: boolean; error?: string }[]; error: string | null }[]>(await api.get(`${INBOX}/rules/${ruleId}/runs`, as(owner)));
const disable = async (ruleId: string) => ok(await api.patch(`${INBOX}/rules/${ruleId}`, as(owner, { body: { enabled: false } })));

/** Runs the outbox and the queue until nothing is left (the worker's loops, by hand). */
async function settle() {
  for (let idle = 0, round = 0; idle < 2 && round < 40; round++) {
    const counts = await runDeliveryRound();
    idle = counts.events + counts.jobs === 0 ? idle + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 5)); // PGlite's clock: a job stored this millisecond is due the next
  }
}

async function conversation(id: string) {
  const prisma = await db();
  const row = await prisma.conversation.findUniqueOrThrow({ where: { id }, select: { status: true, teamId: true, assignedMemberId: true, snoozedUntil: true, labels: { select: { labelId: true } } } });
  return { ...row, labels: row.labels.map((label) => label.labelId).sort() };
}

const timeline = async (id: string) =>
  (await db()).message.findMany({ where: { conversationId: id }, orderBy: [{ sequence: "asc" }, { noteNumber: "asc" }], select: { kind: true, event: true, details: true, body: true, memberId: true, authorType: true } });

const send = (started: Started, body: string) => api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { body, client_id: `m_${Math.random()}` } });

beforeAll(async () => {
  [owner, agent, salesAgent] = [await createStaff("owner", "Olive Owner"), await createStaff("agent", "Andy Agent"), await createStaff("agent", "Sam Sales")];
  sales = await ok(await api.post(`${INBOX}/teams`, as(owner, { body: { name: "Sales", member_ids: [salesAgent.id] } })), 201);
  labelSales = (await ok(await api.post(`${INBOX}/labels`, as(owner, { body: { name: "Sales", color: "#336699" } })), 201)).id;
  labelVip = (await ok(await api.post(`${INBOX}/labels`, as(owner, { body: { name: "VIP", color: "#993366" } })), 201)).id;
  labelFollowUp = (await ok(await api.post(`${INBOX}/labels`, as(owner, { body: { name: "Follow up", color: "#669933" } })), 201)).id;
  teamReply = (await ok(await api.post(`${INBOX}/saved-replies`, as(owner, { body: { scope: "team", shortcut: "hello", title: "Hello", body: "Hi {{visitor.name|there}}, we are on it." } })), 201)).id;
});

afterAll(async () => {
  await settle();
});

describe("owners write rules", () => {
  test("create, list in order, move, disable and delete; agents are refused", async () => {
    const first = await createRule({ name: "First", event: "conversation.created", actions: [{ type: "add_label", label_id: labelVip }], enabled: false });
    const second = await createRule({ name: "Second", event: "message.created", actions: [{ type: "close" }], enabled: false });
    expect(first).toMatchObject({ name: "First", enabled: false, event: "conversation.created", idle_minutes: null, conditions: [], position: expect.any(Number) });
    expect(second.position).toBeGreaterThan(first.position);
    const moved = await ok(await api.patch(`${INBOX}/rules/${second.id}`, as(owner, { body: { position: 0 } })));
    expect(moved.position).toBe(0);
    const listed = await ok<{ id: string }[]>(await api.get(`${INBOX}/rules`, as(owner)));
    expect(listed.map((rule) => rule.id).slice(0, 2)).toEqual([second.id, first.id]);
    expectError(await api.get(`${INBOX}/rules`, as(agent)), 403, "forbidden");
    expectError(await api.post(`${INBOX}/rules`, as(agent, { body: { name: "x", event: "conversation.created", actions: [{ type: "close" }] } })), 403, "forbidden");
    expect(await ok(await api.delete(`${INBOX}/rules/${second.id}`, as(owner)))).toEqual({ id: second.id, deleted: true });
    expect(await ok(await api.delete(`${INBOX}/rules/${first.id}`, as(owner)))).toEqual({ id: first.id, deleted: true });
    expectError(await api.delete(`${INBOX}/rules/${first.id}`, as(owner)), 404, "not_found");
    expectError(await api.get(`${INBOX}/rules/${first.id}/runs`, as(owner)), 404, "not_found");
  });

  test.each([
    ["an operator that does not fit a text field", { conditions: [{ field: "page_url", op: "gt", value: 3 }] }, "conditions.0.op"],
    ["contains on the status", { conditions: [{ field: "status", op: "contains", value: "op" }] }, "conditions.0.op"],
    ["glob on within_hours", { conditions: [{ field: "within_hours", op: "glob", value: "*" }] }, "conditions.0.op"],
    ["a status that is none", { conditions: [{ field: "status", op: "eq", value: "pending" }] }, "conditions.0.value"],
    ["a value on set", { conditions: [{ field: "team", op: "set", value: "x" }] }, "conditions.0.value"],
    ["in without a list", { conditions: [{ field: "locale", op: "in", value: "de" }] }, "conditions.0.value"],
    ["an unknown field", { conditions: [{ field: "visitor.phone", op: "eq", value: "1" }] }, "conditions.0.field"],
    ["an attribute that does not exist", { conditions: [{ field: "attr.plan", op: "eq", value: "pro" }] }, "conditions.0.field"],
    ["set_attribute of an attribute that does not exist", { actions: [{ type: "set_attribute", key: "plan", value: "pro" }] }, "actions.0.key"],
    ["an unknown team", { actions: [{ type: "assign_team", team_id: "tm_nope" }] }, "actions.0.team_id"],
    ["an unknown label", { actions: [{ type: "close" }, { type: "add_label", label_id: "nope" }] }, "actions.1.label_id"],
    ["an unknown action", { actions: [{ type: "explode" }] }, "actions.0.type"],
    ["too many actions", { actions: Array.from({ length: 21 }, () => ({ type: "close" })) }, "actions"],
    ["idle without idle_minutes", { event: "conversation.idle" }, "idle_minutes"],
    ["idle_minutes on another event", { idle_minutes: 5 }, "idle_minutes"],
    ["an unknown event", { event: "conversation.exploded" }, "event"],
    ["a name too long", { name: "x".repeat(81) }, "name"],
  ])("%s: 400, nothing saved", async (_what, change, path) => {
    const before = exceptActivity(await stateSnapshot());
    const body = { name: "Refused", event: "conversation.created", actions: [{ type: "close" }], ...change };
    const response = await api.post(`${INBOX}/rules`, as(owner, { body }));
    expectError(response, 400, "invalid_request");
    expect(JSON.stringify(response.json)).toContain(path);
    expect(exceptActivity(await stateSnapshot())).toEqual(before);
  });

  test("a change that does not fit is 400 and leaves the rule as it was", async () => {
    const rule = await createRule({ name: "Steady", event: "conversation.created", actions: [{ type: "close" }], enabled: false });
    expectError(await api.patch(`${INBOX}/rules/${rule.id}`, as(owner, { body: { event: "conversation.idle" } })), 400, "invalid_request");
    expectError(await api.patch(`${INBOX}/rules/${rule.id}`, as(owner, { body: { conditions: [{ field: "label", op: "contains", value: "x" }] } })), 400, "invalid_request");
    const [listed] = (await ok<any[]>(await api.get(`${INBOX}/rules`, as(owner)))).filter((item) => item.id === rule.id);
    expect(listed).toEqual(rule);
    await api.delete(`${INBOX}/rules/${rule.id}`, as(owner));
  });
});

describe("events and actions", () => {
  test("conversation.created on /pricing: labelled Sales and routed to Sales, in the timeline as the rule's", async () => {
    const rule = await createRule({
      name: "Pricing to Sales",
      event: "conversation.created",
      conditions: [{ field: "page_url", op: "eq", value: "/pricing" }],
      actions: [{ type: "add_label", label_id: labelSales }, { type: "assign_team", team_id: sales.id }],
    });
    const site = await createSite();
    const pricing = await startConversation(site.id, { body: "How much is it?", client_id: "v1", page_url: "https://shop.example/pricing" });
    const elsewhere = await startConversation(site.id, { body: "Hello", client_id: "v1", page_url: "https://shop.example/about" });
    await settle();
    expect(await conversation(pricing.conversationId)).toMatchObject({ teamId: sales.id, labels: [labelSales] });
    expect(await conversation(elsewhere.conversationId)).toMatchObject({ teamId: null, labels: [] });
    const events = (await timeline(pricing.conversationId)).filter((row) => row.event === "labelled" || row.event === "team_changed");
    expect(events.map((row) => row.event)).toEqual(["labelled", "team_changed"]);
    for (const row of events) expect(row.details).toMatchObject({ actorMemberId: null, rule: { id: rule.id, name: "Pricing to Sales" } });
    const runs = await runsOf(rule.id);
    expect(runs).toEqual([{ at: expect.any(String), conversation_id: pricing.conversationId, actions: [{ type: "add_label", ok: true }, { type: "assign_team", ok: true }], error: null }]);
    await disable(rule.id);
  });

  test("message.created (visitors only): a note and a saved reply, written by the rules' bot; its own reply raises nothing", async () => {
    const site = await createSite();
    const rule = await createRule({
      name: "Refunds",
      event: "message.created",
      conditions: [{ field: "message.body", op: "contains", value: "REFUND" }, { field: "site", op: "eq", value: site.id }],
      actions: [{ type: "add_note", body: "Refund asked" }, { type: "send_saved_reply", saved_reply_id: teamReply }],
    });
    const started = await startConversation(site.id, { body: "Hi", client_id: "v1", name: "Ada" });
    expect((await send(started, "I want a refund please")).status).toBe(201);
    await settle();
    const rows = await timeline(started.conversationId);
    const byRule = rows.filter((row) => row.memberId === RULES_BOT_ID);
    expect(byRule.map((row) => [row.kind, row.body])).toEqual([
      ["note", "Refund asked"],
      ["message", "Hi Ada, we are on it."],
    ]);
    for (const row of byRule) expect(row.details).toMatchObject({ rule: { id: rule.id, name: "Refunds" } });
    // A staff message saying "refund" is no event for rules; one run for one visitor message.
    await ok(await api.post(`${INBOX}/conversations/${started.conversationId}/messages`, as(owner, { body: { body: "About your refund", kind: "message" } })), 201);
    await settle();
    expect(await runsOf(rule.id)).toHaveLength(1);
    expect((await send(started, "refund again")).status).toBe(201);
    await settle();
    expect(await runsOf(rule.id)).toHaveLength(2);
    await disable(rule.id);
  });

  test("visitor attributes: an attr.<key> condition by its definition's type, and set_attribute through the attributes' service", async () => {
    await ok(await api.post(`${INBOX}/attributes`, as(owner, { body: { key: "seats", label: "Seats", type: "number" } })), 201);
    await ok(await api.post(`${INBOX}/attributes`, as(owner, { body: { key: "tier", label: "Tier", type: "list", options: ["basic", "gold"] } })), 201);
    expectError(await api.post(`${INBOX}/rules`, as(owner, { body: { name: "x", event: "message.created", conditions: [{ field: "attr.seats", op: "contains", value: "1" }] } })), 400, "invalid_request");
    const site = await createSite();
    const rule = await createRule({
      name: "Big accounts",
      event: "message.created",
      conditions: [{ field: "attr.seats", op: "gt", value: 50 }, { field: "site", op: "eq", value: site.id }],
      actions: [{ type: "set_attribute", key: "tier", value: "gold" }, { type: "add_label", label_id: labelVip }],
    });
    const big = await startConversation(site.id, { body: "Hi", client_id: "v1" });
    const small = await startConversation(site.id, { body: "Hi", client_id: "v1" });
    for (const [started, seats] of [[big, 120], [small, 5]] as const) {
      await ok(await api.patch(`${INBOX}/conversations/${started.conversationId}/attributes`, as(owner, { body: { attributes: { seats } } })));
      expect((await send(started, "A question about our plan")).status).toBe(201);
    }
    await settle();
    const attributes = async (id: string) => (await ok(await api.get(`${INBOX}/conversations/${id}`, as(owner)))).attributes;
    expect(await attributes(big.conversationId)).toEqual({ seats: 120, tier: "gold" });
    expect(await conversation(big.conversationId)).toMatchObject({ labels: [labelVip] });
    expect(await attributes(small.conversationId)).toEqual({ seats: 5 });
    const changed = (await timeline(big.conversationId)).filter((row) => row.event === "attributes_changed").at(-1);
    expect(changed?.details).toMatchObject({ actorMemberId: null, rule: { id: rule.id, name: "Big accounts" } });
    await disable(rule.id);
  });

  test("a loop attempt fires once: a rule's close is no conversation.closed for rules; a member's close is", async () => {
    const site = await createSite();
    const closer = await createRule({ name: "Closer", event: "message.created", conditions: [{ field: "site", op: "eq", value: site.id }, { field: "message.body", op: "starts_with", value: "bye" }], actions: [{ type: "close" }] });
    const onClosed = await createRule({ name: "On closed", event: "conversation.closed", conditions: [{ field: "site", op: "in", value: [site.id] }], actions: [{ type: "add_label", label_id: labelFollowUp }] });
    const onReopened = await createRule({ name: "On reopened", event: "conversation.reopened", conditions: [{ field: "site", op: "eq", value: site.id }], actions: [{ type: "assign_member", member_id: agent.id }] });
    const started = await startConversation(site.id, { body: "Hello", client_id: "v1" });
    expect((await send(started, "Bye now")).status).toBe(201);
    await settle();
    expect(await conversation(started.conversationId)).toMatchObject({ status: "closed", labels: [] });
    const closeLine = (await timeline(started.conversationId)).find((row) => row.event === "conversation_closed");
    expect(closeLine?.details).toMatchObject({ rule: { id: closer.id, name: "Closer" } });
    expect(await runsOf(closer.id)).toHaveLength(1);
    expect(await runsOf(onClosed.id)).toHaveLength(0);

    await ok(await api.post(`${INBOX}/conversations/${started.conversationId}/reopen`, as(owner)));
    await settle();
    expect(await conversation(started.conversationId)).toMatchObject({ status: "open", assignedMemberId: agent.id });
    await ok(await api.post(`${INBOX}/conversations/${started.conversationId}/close`, as(owner)));
    await settle();
    expect(await conversation(started.conversationId)).toMatchObject({ status: "closed", labels: [labelFollowUp] });
    expect(await runsOf(onClosed.id)).toHaveLength(1);
    expect(await runsOf(onReopened.id)).toHaveLength(1);
    for (const rule of [closer, onClosed, onReopened]) await disable(rule.id);
  });

  test("every other action, in order; a failing one is written in the run and the rest still run", async () => {
    const site = await createSite();
    const rule = await createRule({
      name: "Everything",
      event: "conversation.created",
      conditions: [{ field: "site", op: "eq", value: site.id }],
      actions: [
        { type: "add_label", label_id: labelVip },
        { type: "add_label", label_id: labelSales },
        { type: "remove_label", label_id: labelVip },
        { type: "assign_team", team_id: sales.id },
        { type: "assign_member", member_id: agent.id }, // not in Sales: may not see it, refused
        { type: "assign_member", member_id: salesAgent.id },
        { type: "snooze", minutes: 60 },
      ],
    });
    const started = await startConversation(site.id, { body: "Hello", client_id: "v1" });
    await settle();
    const state = await conversation(started.conversationId);
    expect(state).toMatchObject({ status: "snoozed", teamId: sales.id, assignedMemberId: salesAgent.id, labels: [labelSales] });
    expect(state.snoozedUntil!.getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
    const [run] = await runsOf(rule.id);
    expect(run!.actions.map((action) => [action.type, action.ok])).toEqual([
      ["add_label", true],
      ["add_label", true],
      ["remove_label", true],
      ["assign_team", true],
      ["assign_member", false],
      ["assign_member", true],
      ["snooze", true],
    ]);
    expect(run!.error).toMatch(/^assign_member: /);
    const events = (await timeline(started.conversationId)).filter((row) => ["assigned", "snoozed"].includes(row.event ?? ""));
    expect(events.map((row) => row.event)).toEqual(["assigned", "snoozed"]);
    for (const row of events) expect(row.details).toMatchObject({ rule: { id: rule.id } });
    await disable(rule.id);
  });

  test("rules run in list order, once per event, and the next sees what the one before did", async () => {
    const site = await createSite();
    const second = await createRule({ name: "Second", event: "conversation.created", conditions: [{ field: "site", op: "eq", value: site.id }, { field: "label", op: "eq", value: labelVip }], actions: [{ type: "add_label", label_id: labelSales }] });
    const first = await createRule({ name: "First", event: "conversation.created", conditions: [{ field: "site", op: "eq", value: site.id }, { field: "label", op: "not_set" }], actions: [{ type: "add_label", label_id: labelVip }] });
    await ok(await api.patch(`${INBOX}/rules/${first.id}`, as(owner, { body: { position: 0 } })));
    const started = await startConversation(site.id, { body: "Hello", client_id: "v1" });
    await settle();
    expect((await conversation(started.conversationId)).labels).toEqual([labelSales, labelVip].sort());
    // The same event again (a retried job): nothing runs twice.
    const [run] = await runsOf(first.id);
    const eventKey = (await (await db()).ruleRun.findFirstOrThrow({ where: { ruleId: first.id } })).eventKey;
    await enqueueRuleEvent({ addJobs: (sql, jobs) => addJobsNow(sql, jobs) }, await executorOf(), { event: "conversation.created", conversationId: started.conversationId, key: eventKey });
    await settle();
    expect(await runsOf(first.id)).toEqual([run]);
    expect(await runsOf(second.id)).toHaveLength(1);
    for (const rule of [first, second]) await disable(rule.id);
  });

  test("a batch of jobs: conversations side by side, each conversation's events one after the other", async () => {
    const site = await createSite();
    const started = await Promise.all(Array.from({ length: 6 }, (_, i) => startConversation(site.id, { body: "Hello", client_id: `batch-${i}` })));
    const rule = await createRule({ name: "Once per conversation", event: "conversation.created", conditions: [{ field: "site", op: "eq", value: site.id }, { field: "label", op: "not_set" }], actions: [{ type: "add_label", label_id: labelFollowUp }] });
    // Two events of each conversation in one batch: the second sees the label the first added, so it does not match.
    const jobs = started.flatMap(({ conversationId }) => ["a", "b"].map((key) => ({ event: "conversation.created", conversationId, key: `batch-${key}-${conversationId}` })));
    await runRuleJobs(jobs);
    for (const { conversationId } of started) expect((await conversation(conversationId)).labels).toEqual([labelFollowUp]);
    const runs = await (await db()).ruleRun.findMany({ where: { ruleId: rule.id, eventKey: { startsWith: "batch-" } }, select: { eventKey: true, conversationId: true } });
    expect(runs.map((run) => run.eventKey).sort()).toEqual(started.map(({ conversationId }) => `batch-a-${conversationId}`).sort());
    await disable(rule.id);
  });

  test("sla.breached through enqueueRuleEvent; conversation.idle from the minute's check, once per quiet spell", async () => {
    const site = await createSite();
    const breached = await createRule({ name: "Breach", event: "sla.breached", actions: [{ type: "add_label", label_id: labelVip }] });
    const quiet = await createRule({ name: "Quiet", event: "conversation.idle", idle_minutes: 30, conditions: [{ field: "site", op: "eq", value: site.id }], actions: [{ type: "add_note", body: "Still there?" }] });
    const started = await startConversation(site.id, { body: "Hello", client_id: "v1" });
    await enqueueRuleEvent({ addJobs: (sql, jobs) => addJobsNow(sql, jobs) }, await executorOf(), { event: "sla.breached", conversationId: started.conversationId, key: "breach:1" });
    await settle();
    expect((await conversation(started.conversationId)).labels).toEqual([labelVip]);
    expect(await runsOf(breached.id)).toHaveLength(1);

    expect(await checkIdleRules()).toBe(0); // not quiet for 30 minutes yet
    await backdate(started.conversationId, 31);
    expect(await checkIdleRules()).toBe(1);
    expect(await checkIdleRules()).toBe(0); // the rule's note does not start a new quiet spell
    await backdate(started.conversationId, 120);
    expect(await checkIdleRules()).toBe(0);
    expect((await timeline(started.conversationId)).filter((row) => row.body === "Still there?")).toHaveLength(1);
    expect(await send(started, "I am back")).toMatchObject({ status: 201 });
    await backdate(started.conversationId, 31);
    expect(await checkIdleRules()).toBe(1);
    expect(await runsOf(quiet.id)).toHaveLength(2);
    for (const rule of [breached, quiet]) await disable(rule.id);
  });

  test("a ReDoS-shaped glob against a long message: the send stays fast and the rule answers at once", async () => {
    const site = await createSite();
    const pattern = `${"*a".repeat(200)}*b`;
    const rule = await createRule({ name: "Hostile", event: "message.created", conditions: [{ field: "site", op: "eq", value: site.id }, { field: "message.body", op: "glob", value: pattern }], actions: [{ type: "add_label", label_id: labelVip }] });
    const matching = await createRule({ name: "Hostile but matching", event: "message.created", conditions: [{ field: "site", op: "eq", value: site.id }, { field: "message.body", op: "glob", value: `${"*a".repeat(200)}*` }], actions: [{ type: "add_label", label_id: labelSales }] });
    const started = await startConversation(site.id, { body: "Hello", client_id: "v1" });
    const sentAt = performance.now();
    expect((await send(started, "a".repeat(4000))).status).toBe(201);
    const sendMs = performance.now() - sentAt;
    const settledAt = performance.now();
    await settle();
    expect(sendMs).toBeLessThan(2_000);
    expect(performance.now() - settledAt).toBeLessThan(10_000);
    expect((await conversation(started.conversationId)).labels).toEqual([labelSales]);
    expect(await runsOf(rule.id)).toHaveLength(0);
    expect(await runsOf(matching.id)).toHaveLength(1);
    for (const item of [rule, matching]) await disable(item.id);
  });
});

describe("the dry run", () => {
  test("each condition type's outcome and what would be done, changing nothing", async () => {
    const site = await createSite();
    const started = await startConversation(site.id, { body: "Need a quote for 20 seats", client_id: "v1", email: "ada@example.org", locale: "de-CH", page_url: "https://shop.example/pricing?plan=team" });
    await settle();
    await ok(await api.put(`${INBOX}/conversations/${started.conversationId}/labels`, as(owner, { body: { labels: [labelVip] } })));
    const conditions = [
      { field: "site", op: "eq", value: site.id },
      { field: "site", op: "neq", value: site.id },
      { field: "team", op: "not_set" },
      { field: "team", op: "in", value: [sales.id] },
      { field: "label", op: "eq", value: labelVip },
      { field: "label", op: "neq", value: labelSales },
      { field: "status", op: "in", value: ["open", "snoozed"] },
      { field: "page_url", op: "starts_with", value: "/pricing" },
      { field: "page_url", op: "glob", value: "https://*.example/pri?ing*" },
      { field: "message.body", op: "contains", value: "QUOTE" },
      { field: "visitor.email", op: "glob", value: "*@example.org" },
      { field: "visitor.email", op: "set" },
      { field: "locale", op: "starts_with", value: "de" },
      { field: "locale", op: "eq", value: "fr" },
      { field: "within_hours", op: "eq", value: true },
    ];
    const rule = { name: "Try", event: "conversation.created", conditions, actions: [{ type: "assign_team", team_id: sales.id }, { type: "add_label", label_id: labelSales }, { type: "close" }] };
    const before = exceptActivity(await stateSnapshot());
    const tried = await ok(await api.post(`${INBOX}/rules/test`, as(owner, { body: { rule, conversation_id: started.conversationId } })));
    expect(tried.conditions.map((item: { result: boolean }) => item.result)).toEqual([true, false, true, false, true, true, true, true, true, true, true, true, true, false, true]);
    expect(tried.conditions[0]).toEqual({ field: "site", op: "eq", value: site.id, result: true });
    expect(tried.matched).toBe(false);
    expect(tried.actions).toEqual([]);
    const matchedRule = { ...rule, conditions: conditions.filter((_condition, index) => ![1, 3, 13].includes(index)) };
    const matched = await ok(await api.post(`${INBOX}/rules/test`, as(owner, { body: { rule: matchedRule, conversation_id: started.conversationId } })));
    expect(matched.matched).toBe(true);
    expect(matched.actions).toEqual([
      { type: "assign_team", team_id: sales.id, description: "assign team Sales" },
      { type: "add_label", label_id: labelSales, description: "add label Sales" },
      { type: "close", description: "close it" },
    ]);
    expect(exceptActivity(await stateSnapshot())).toEqual(before);
    expectError(await api.post(`${INBOX}/rules/test`, as(owner, { body: { rule, conversation_id: "nope" } })), 404, "conversation_not_found");
    expectError(await api.post(`${INBOX}/rules/test`, as(owner, { body: { rule: { ...rule, conditions: [{ field: "status", op: "glob", value: "*" }] }, conversation_id: started.conversationId } })), 400, "invalid_request");
    expectError(await api.post(`${INBOX}/rules/test`, as(agent, { body: { rule, conversation_id: started.conversationId } })), 403, "forbidden");
    expect(exceptActivity(await stateSnapshot())).toEqual(before);
  });
});

// Jobs added outside a round (as the SLA check will), through a queue of the test's own.
let boss: PgBoss | null = null;
const executorOf = () => sqlExecutor();
async function addJobsNow(sql: SqlQuery, jobs: JobSpec[]) {
  if (!boss) {
    boss = createBoss(await sqlExecutor(), DEFAULT_TIMINGS, { supervise: false });
    await boss.start();
    await ensureQueues(boss, DEFAULT_TIMINGS);
  }
  await addJobs(boss, sql, jobs.map((job) => ({ ...job, startAfter: new Date(Date.now() - 1_000) })));
}

afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true }).catch(() => undefined);
});

/** The conversation's messages and activity `minutes` further in the past. */
async function backdate(conversationId: string, minutes: number) {
  const prisma = await db();
  await prisma.$executeRaw`UPDATE messages SET created_at = now() - ${minutes} * interval '1 minute' WHERE conversation_id = ${conversationId}`;
  await prisma.$executeRaw`UPDATE conversations SET last_activity_at = now() - ${minutes} * interval '1 minute' WHERE id = ${conversationId}`;
}

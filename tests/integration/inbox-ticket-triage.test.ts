import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { stopInboxListening } from "../../lib/realtime/inbox-signals";
import { appendFilerReply } from "../../lib/tickets/ticket-replies";
import { api, type ApiResponse } from "../support/api";
import { abortEventStreams, openEventStream } from "../support/event-stream";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { exceptActivity, stateSnapshot } from "../support/state-snapshot";
import { fileTicket, ticket } from "../support/tickets";

// Ticket triage (issue #25): status open|pending|solved, an assignee, priority; the list's filters;
// the filer's emailed reply reopens; a staff reply may set pending. Every refusal changes nothing.

const TICKETS = "/api/v1/inbox/tickets";
let owner: Staff;
let agent: Staff;
let siteId: string;
let ticketIds: string[];

const one = (id: string) => `${TICKETS}/${encodeURIComponent(id)}`;
const state = async () => exceptActivity(await stateSnapshot());
async function expectRefusedUnchanged(send: () => Promise<ApiResponse>, status: number, code: string): Promise<void> {
  const before = await state();
  expectError(await send(), status, code);
  expect(await state()).toEqual(before);
}

async function listed(query: string, who: Staff = agent): Promise<string[]> {
  const response = await api.get(`${TICKETS}?site=${siteId}${query}`, as(who));
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return (response.json.result.items as { id: string }[]).map((item) => item.id);
}

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Ada Agent");
  siteId = (await createSite()).id;
  for (const subject of ["First", "Second", "Third"]) await fileTicket(siteId, ticket({ subject, email: "filer@example.com" }));
  ticketIds = await listed("");
});

describe("PATCH /api/v1/inbox/tickets/{id} refuses, changing nothing", () => {
  test("without a session → 401; without the inbox's Origin → 403", async () => {
    await expectRefusedUnchanged(() => api.patch(one(ticketIds[0]!), as(null, { body: { status: "solved" } })), 401, "unauthorized");
    await expectRefusedUnchanged(() => api.get(`${TICKETS}?status=open`, as(null)), 401, "unauthorized");
    for (const origin of [null, "https://evil.example", ORIGIN]) {
      await expectRefusedUnchanged(() => api.patch(one(ticketIds[0]!), as(agent, { origin, body: { status: "solved" } })), 403, "origin_not_allowed");
    }
  });

  test("bad input → 400 invalid_request", async () => {
    const bad: unknown[] = [{}, { status: "closed" }, { status: null }, { priority: "critical" }, { assignee_id: "" }, { assignee_id: 5 }, { status: "solved", extra: 1 }, "solved", []];
    for (const body of bad) await expectRefusedUnchanged(() => api.patch(one(ticketIds[0]!), as(agent, { body })), 400, "invalid_request");
  });

  test("an unknown ticket → 404 not_found; an unknown, bot or deactivated assignee → 404 member_not_found, even beside a valid change", async () => {
    await expectRefusedUnchanged(() => api.patch(one("no-such-ticket"), as(agent, { body: { status: "solved" } })), 404, "not_found");
    const prisma = await db();
    await prisma.member.create({ data: { id: "bot-triage", name: "Bot", bot: true } });
    const gone = await createStaff("agent", "Gone Agent");
    await prisma.member.update({ where: { id: gone.id }, data: { deactivatedAt: new Date() } });
    for (const assignee_id of ["no-such-member", "bot-triage", gone.id]) {
      await expectRefusedUnchanged(() => api.patch(one(ticketIds[0]!), as(agent, { body: { status: "solved", assignee_id } })), 404, "member_not_found");
    }
  });

  test("a bad list filter → 400", async () => {
    for (const query of ["&status=closed", "&priority=critical", "&assignee=", "&cursor=x", "&sort=old"]) {
      const response = await api.get(`${TICKETS}?site=${siteId}${query}`, as(agent));
      expect({ query, status: response.status, code: response.json.result.code }).toEqual({ query, status: 400, code: "invalid_request" });
    }
  });
});

describe("triage", () => {
  test("an agent sets status, assignee and priority: the read carries them, each change is a timeline event and an audit row", async () => {
    const [id] = ticketIds;
    const response = await api.patch(one(id!), as(agent, { body: { status: "pending", assignee_id: agent.id, priority: "high" } }));
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json.result).toMatchObject({ id, status: "pending", assignee: { id: agent.id, name: "Ada Agent" }, priority: "high", solved_at: null });

    const solved = (await api.patch(one(id!), as(owner, { body: { status: "solved", assignee_id: null } }))).json.result;
    expect(solved).toMatchObject({ status: "solved", assignee: null });
    expect(Date.parse(solved.solved_at)).not.toBeNaN();
    expect(solved.events.map((event: { field: string; from: string | null; to: string | null; actor_name: string | null }) => [event.actor_name, event.field, event.from, event.to])).toEqual(
      expect.arrayContaining([
        ["Ada Agent", "status", "open", "pending"],
        ["Ada Agent", "assignee", null, "Ada Agent"],
        ["Ada Agent", "priority", "normal", "high"],
        ["Olive Owner", "status", "pending", "solved"],
        ["Olive Owner", "assignee", "Ada Agent", null],
      ]),
    );
    expect(solved.events).toHaveLength(5);

    const audit = await (await db()).auditEvent.findMany({ where: { action: "ticket.updated", target: `ticket:${id}` }, orderBy: { at: "asc" } });
    expect(audit.map((row) => [row.actor, (row.details as { fields: string[] }).fields])).toEqual([
      [`member:${agent.id}`, ["assignee_id", "priority", "status"]],
      [`member:${owner.id}`, ["assignee_id", "status"]],
    ]);
  });

  test("setting what is already set adds no event", async () => {
    const id = ticketIds[1]!;
    const first = (await api.patch(one(id), as(agent, { body: { priority: "low" } }))).json.result;
    const again = (await api.patch(one(id), as(agent, { body: { priority: "low" } }))).json.result;
    expect(again.events).toEqual(first.events);
  });

  test("the list filters by status, assignee and priority, with site", async () => {
    const [a, b, c] = ticketIds as [string, string, string];
    await api.patch(one(c), as(agent, { body: { status: "pending", assignee_id: owner.id, priority: "urgent" } }));
    await api.patch(one(b), as(agent, { body: { assignee_id: agent.id, status: "open" } }));
    expect(new Set(await listed(""))).toEqual(new Set([a, b, c]));
    expect(await listed("&status=all")).toEqual(await listed(""));
    expect(await listed("&status=open")).toEqual([b]);
    expect(await listed("&status=pending")).toEqual([c]);
    expect(await listed("&status=solved")).toEqual([a]);
    expect(await listed("&assignee=me")).toEqual([b]);
    expect(await listed("&assignee=me", owner)).toEqual([c]);
    expect(await listed(`&assignee=${owner.id}`)).toEqual([c]);
    expect(new Set(await listed("&assignee=none"))).toEqual(new Set([a]));
    expect(await listed("&assignee=no-such-member")).toEqual([]);
    expect(await listed("&priority=urgent")).toEqual([c]);
    expect(await listed("&priority=urgent&status=open")).toEqual([]);
    const [item] = (await api.get(`${TICKETS}?site=${siteId}&status=pending`, as(agent))).json.result.items;
    expect(item).toMatchObject({ status: "pending", assignee: { id: owner.id, name: "Olive Owner" }, priority: "urgent" });
  });

  test("a staff reply may set pending; the filer's emailed reply reopens a pending or solved ticket", async () => {
    const filed = await fileTicket(siteId, ticket({ subject: "Reply flow" }));
    const id = (await (await db()).ticket.findFirstOrThrow({ where: { siteId, number: filed.number } })).id;
    const reply = await api.post(`${one(id)}/replies`, as(agent, { body: { body: "Can you send a photo?", status: "pending" } }));
    expect(reply.status, JSON.stringify(reply.json)).toBe(201);
    expect((await api.get(one(id), as(agent))).json.result.status).toBe("pending");
    await expectRefusedUnchanged(() => api.post(`${one(id)}/replies`, as(agent, { body: { body: "x", status: "closed" } })), 400, "invalid_request");

    await appendFilerReply(id, "Here it is.");
    let read = (await api.get(one(id), as(agent))).json.result;
    expect(read.status).toBe("open");
    expect(read.events.at(-1)).toMatchObject({ field: "status", from: "pending", to: "open", actor_id: null, actor_name: null });

    await api.patch(one(id), as(agent, { body: { status: "solved" } }));
    await appendFilerReply(id, "Thanks!");
    read = (await api.get(one(id), as(agent))).json.result;
    expect(read).toMatchObject({ status: "open", solved_at: null });

    const events = read.events.length;
    await appendFilerReply(id, "One more thing.");
    expect((await api.get(one(id), as(agent))).json.result.events).toHaveLength(events);
  });

  test("reply and set pending is recorded as PATCH records it: one history row, one audit row; a plain reply neither", async () => {
    const filed = await fileTicket(siteId, ticket({ subject: "Audited reply" }));
    const id = (await (await db()).ticket.findFirstOrThrow({ where: { siteId, number: filed.number } })).id;
    const audit = () => db().then((prisma) => prisma.auditEvent.findMany({ where: { action: "ticket.updated", target: `ticket:${id}` }, orderBy: { at: "asc" } }));
    expect((await api.post(`${one(id)}/replies`, as(agent, { body: { body: "Looking into it." } }))).status).toBe(201);
    expect(await audit()).toEqual([]);
    expect((await api.post(`${one(id)}/replies`, as(agent, { body: { body: "Can you send a photo?", status: "pending" } }))).status).toBe(201);
    const read = (await api.get(one(id), as(agent))).json.result;
    expect(read.events.map((event: { field: string; from: string; to: string; actor_id: string }) => [event.field, event.from, event.to, event.actor_id])).toEqual([
      ["status", "open", "pending", agent.id],
    ]);
    expect((await audit()).map((row) => [row.actor, row.details])).toEqual([[`member:${agent.id}`, { fields: ["status"], status: "pending" }]]);
  });

  test("the operator's ticket list carries the same triage as the inbox's", async () => {
    const filed = await fileTicket(siteId, ticket({ subject: "Operator sees triage" }));
    const id = (await (await db()).ticket.findFirstOrThrow({ where: { siteId, number: filed.number } })).id;
    await api.patch(one(id), as(agent, { body: { status: "solved", assignee_id: owner.id } }));
    const inbox = (await api.get(one(id), as(agent))).json.result;
    const operator = (await api.get(`/api/v1/admin/tickets?site=${siteId}`, { admin: true })).json.result.find((item: { id: string }) => item.id === id);
    expect(operator).toMatchObject({ status: "solved", assignee: { id: owner.id, name: "Olive Owner" } });
    for (const field of ["status", "assignee", "created_at", "updated_at", "solved_at", "priority"]) expect(operator[field]).toEqual(inbox[field]);
    expect(operator.solved_at).not.toBeNull();
  });
});

describe("the list's pages and live updates", () => {
  afterEach(abortEventStreams);
  afterAll(stopInboxListening);

  test("cursor pages walk every ticket once, newest first with ties by id; a bad cursor or limit → 400", async () => {
    const pageSite = (await createSite()).id;
    for (let i = 0; i < 5; i++) await fileTicket(pageSite, ticket({ subject: `Paged ${i}` }));
    const prisma = await db();
    const rows = await prisma.ticket.findMany({ where: { siteId: pageSite }, select: { id: true } });
    // Three filed in the same millisecond: only the id orders them.
    const tie = new Date("2026-11-20T10:00:00.000Z");
    await prisma.ticket.updateMany({ where: { id: { in: rows.slice(0, 3).map((row) => row.id) } }, data: { createdAt: tie } });
    const expected = (await prisma.ticket.findMany({ where: { siteId: pageSite }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } })).map((row) => row.id);

    const walked: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: ApiResponse = await api.get(`${TICKETS}?site=${pageSite}&limit=2${cursor ? `&cursor=${cursor}` : ""}`, as(agent));
      expect(response.status, JSON.stringify(response.json)).toBe(200);
      walked.push(...response.json.result.items.map((item: { id: string }) => item.id));
      cursor = response.json.result.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(walked).toEqual(expected);
    expect(pages).toBe(3);

    for (const query of ["&limit=0", "&limit=201", "&limit=1.5", "&cursor=99999999999999999999_x", "&cursor=1_a b"]) {
      const response = await api.get(`${TICKETS}?site=${pageSite}${query}`, as(agent));
      expect({ query, status: response.status, code: response.json.result.code }).toEqual({ query, status: 400, code: "invalid_request" });
    }
  });

  test("a ticket filed, triaged or answered is an event on the inbox stream", async () => {
    const stream = await openEventStream(agent.cookie);
    expect(await stream.ready()).toBe(true);
    const filed = await fileTicket(siteId, ticket({ subject: "Live one" }));
    const id = (await (await db()).ticket.findFirstOrThrow({ where: { siteId, number: filed.number } })).id;
    const seen = (change: string) => stream.until(() => stream.events.some((event) => event.type === "ticket" && event.ticket_id === id && event.change === change));
    expect(await seen("created")).toBe(true);
    const count = () => stream.events.filter((event) => event.type === "ticket" && event.ticket_id === id).length;

    await api.patch(one(id), as(agent, { body: { priority: "urgent" } }));
    expect(await stream.until(() => count() === 2)).toBe(true);
    await api.post(`${one(id)}/replies`, as(agent, { body: { body: "On it." } }));
    expect(await stream.until(() => count() === 3)).toBe(true);
    expect(stream.events.filter((event) => event.type === "ticket").at(-1)).toEqual({ type: "ticket", ticket_id: id, change: "updated" });
    // Setting what is already set changes nothing, and says nothing.
    await api.patch(one(id), as(agent, { body: { priority: "urgent" } }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(count()).toBe(3);
  });
});

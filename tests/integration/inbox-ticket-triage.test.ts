import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { appendFilerReply } from "../../lib/tickets/ticket-replies";
import { api, type ApiResponse } from "../support/api";
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
  return (response.json.result as { id: string }[]).map((item) => item.id);
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
    const [item] = (await api.get(`${TICKETS}?site=${siteId}&status=pending`, as(agent))).json.result;
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
});

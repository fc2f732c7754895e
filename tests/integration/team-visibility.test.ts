import { readdirSync } from "node:fs";
import pg from "pg";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { contractOf } from "../../lib/api/route";
import { api, call, type ApiResponse } from "../support/api";
import { expectError } from "../support/expectations";
import { abortEventStreams, openEventStream } from "../support/event-stream";
import { createSite, startConversation } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { exceptActivity, stateSnapshot } from "../support/state-snapshot";
import { fileTicket, file, ticket } from "../support/tickets";
import { testDatabaseUrl } from "../support/postgres";

// Teams that isolate (decisions.md, round 4, "Teams"; docs/teams.md). Four actors — an owner, an
// agent in Sales, an agent in Support, an agent in no team — against conversations and tickets of
// each kind. The role matrix is generated from the route files: every inbox route about one
// conversation, ticket or file must declare its visibility check (`sees`), every owner-only route
// refuses the agents, every operator route refuses every session, and every other inbox route is
// named below with the test that proves it leaks nothing. A new route that is none of these fails.

const APP_API = path.resolve(import.meta.dirname, "../../app/api/v1");
const INBOX = "/api/v1/inbox";
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

function routeFiles(dir: string, segments: string[] = []): { template: string; file: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return routeFiles(path.join(dir, entry.name), [...segments, entry.name]);
    return entry.name === "route.ts" ? [{ template: `/api/v1/${segments.join("/").replace(/\[([^\]]+)\]/g, "{$1}")}`, file: path.join(dir, entry.name) }] : [];
  });
}

interface RouteMethod {
  method: Method;
  template: string;
  contract: NonNullable<ReturnType<typeof contractOf>>;
}

async function routeMethods(family: "inbox" | "admin"): Promise<RouteMethod[]> {
  const found: RouteMethod[] = [];
  for (const { template, file } of routeFiles(path.join(APP_API, family), [family])) {
    const module = (await import(file)) as Record<string, unknown>;
    for (const method of METHODS) {
      const contract = contractOf(module[method]);
      if (contract) found.push({ method, template, contract });
    }
  }
  return found;
}

/** Inbox routes not about one conversation, ticket or file, each with where it is shown to leak nothing. */
const NOT_ABOUT_ONE: Record<string, string> = {
  "GET /api/v1/inbox/conversations": "the list and its unread total: 'lists, counts and filters'",
  "POST /api/v1/inbox/conversations/bulk": "'bulk actions'",
  "GET /api/v1/inbox/tickets": "'lists, counts and filters'",
  "GET /api/v1/inbox/search": "'search'",
  "GET /api/v1/inbox/events": "'the event stream'",
  "GET /api/v1/inbox/mentions": "a mention makes its conversation visible to the member mentioned: nothing to hide",
  "GET /api/v1/inbox/members": "members, not conversations",
  "GET /api/v1/inbox/sites": "sites, not conversations",
  "GET /api/v1/inbox/articles": "help center articles, not conversations",
  "GET /api/v1/inbox/articles/{id}": "help center articles, not conversations",
  "GET /api/v1/inbox/teams": "teams, not conversations",
  "GET /api/v1/inbox/labels": "labels, not conversations",
  "GET /api/v1/inbox/attributes": "attribute definitions, not conversations",
  "GET /api/v1/inbox/saved-replies": "a member's and the team's saved replies, not conversations",
  "POST /api/v1/inbox/saved-replies": "saved replies",
  "PATCH /api/v1/inbox/saved-replies/{id}": "saved replies",
  "DELETE /api/v1/inbox/saved-replies/{id}": "saved replies",
  "GET /api/v1/inbox/push": "the push key",
  "POST /api/v1/inbox/push/subscriptions": "the member's own push subscription",
  "DELETE /api/v1/inbox/push/subscriptions": "the member's own push subscription",
  "POST /api/v1/inbox/session/activity": "the member's own activity",
  "PUT /api/v1/inbox/session/availability": "the member's own availability",
  "GET /api/v1/inbox/session": "the member's own session",
  "DELETE /api/v1/inbox/session": "signing out",
};

// A valid body for every route about one conversation, ticket or file that takes one, so the
// visibility check (after the input, where an unknown id is found) is what answers.
const SOON = new Date(Date.now() + 3_600_000).toISOString();
const SAMPLE_BODIES: Record<string, unknown> = {
  "POST /api/v1/inbox/conversations/{id}/assign": { member_id: null },
  "PUT /api/v1/inbox/conversations/{id}/labels": { labels: [] },
  "POST /api/v1/inbox/conversations/{id}/messages": { body: "A reply", kind: "note" },
  "POST /api/v1/inbox/conversations/{id}/snooze": { until: SOON },
  "POST /api/v1/inbox/conversations/{id}/typing": { typing: false },
  "POST /api/v1/inbox/conversations/{id}/uploads": file(),
  "PATCH /api/v1/inbox/conversations/{id}/attributes": { attributes: {} },
  "PUT /api/v1/inbox/conversations/{id}/team": { team_id: null }, // to the team it is in: set in the test
  "PATCH /api/v1/inbox/tickets/{id}": { priority: "high" },
  "POST /api/v1/inbox/tickets/{id}/replies": { body: "A reply" },
};

let owner: Staff, sales: Staff, support: Staff, loner: Staff;
let salesTeam: { id: string; name: string }, supportTeam: { id: string; name: string };
const c: Record<"none" | "sales" | "support" | "salesToLoner" | "salesMentionsSupport", string> = {} as never;
const k: Record<"none" | "sales", string> = {} as never;
/** The matrix's own Sales conversation, ticket and file: the routes act on them as they please. */
const matrix = { conversation: "", ticket: "", file: "" };
let actors: Record<"owner" | "sales" | "support" | "loner", Staff>;

/** What each actor may see, by decisions.md's rule. */
const SEES = {
  owner: () => [...Object.values(c), ...Object.values(k)],
  sales: () => [c.none, c.sales, c.salesToLoner, c.salesMentionsSupport, k.none, k.sales],
  support: () => [c.none, c.support, c.salesMentionsSupport, k.none],
  loner: () => [c.none, c.salesToLoner, k.none],
};

async function ok(response: ApiResponse, status = 200) {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  return response.json.result;
}

async function moveTo(conversationId: string, teamId: string | null) {
  return ok(await api.put(`${INBOX}/conversations/${conversationId}/team`, as(owner, { body: { team_id: teamId } })));
}

beforeAll(async () => {
  [owner, sales, support, loner] = await Promise.all([
    createStaff("owner", "Olive Owner"),
    createStaff("agent", "Sam Sales"),
    createStaff("agent", "Sue Support"),
    createStaff("agent", "Lou Loner"),
  ]);
  actors = { owner, sales, support, loner };
  salesTeam = await ok(await api.post(`${INBOX}/teams`, as(owner, { body: { name: "Sales", member_ids: [sales.id] } })), 201);
  supportTeam = await ok(await api.post(`${INBOX}/teams`, as(owner, { body: { name: "Support", member_ids: [support.id] } })), 201);
  const plainSite = await createSite();
  const salesSite = await createSite();
  await ok(await api.patch(`/api/v1/admin/sites/${salesSite.id}`, { admin: true, body: { default_team_id: salesTeam.id } }));

  c.none = (await startConversation(plainSite.id, { body: "zebra on the plain site", client_id: "v1" })).conversationId;
  c.sales = (await startConversation(salesSite.id, { body: "zebra for sales", client_id: "v1" })).conversationId;
  c.support = (await startConversation(plainSite.id, { body: "zebra for support", client_id: "v1" })).conversationId;
  await moveTo(c.support, supportTeam.id);
  // Assigned while it had no team (assignment goes only to who may see it), then moved to Sales.
  c.salesToLoner = (await startConversation(plainSite.id, { body: "zebra assigned", client_id: "v1" })).conversationId;
  await ok(await api.post(`${INBOX}/conversations/${c.salesToLoner}/assign`, as(owner, { body: { member_id: loner.id } })));
  await moveTo(c.salesToLoner, salesTeam.id);
  c.salesMentionsSupport = (await startConversation(salesSite.id, { body: "zebra mention", client_id: "v1" })).conversationId;
  await ok(await api.post(`${INBOX}/conversations/${c.salesMentionsSupport}/messages`, as(owner, { body: { body: "Sue, a look?", kind: "note", mentions: [support.id] } })), 201);

  await fileTicket(plainSite.id, ticket({ subject: "zebra ticket plain" }));
  await fileTicket(salesSite.id, ticket({ subject: "zebra ticket sales" }));
  matrix.conversation = (await startConversation(salesSite.id, { body: "for the matrix", client_id: "v1" })).conversationId;
  matrix.file = (await fileTicket(salesSite.id, ticket({ subject: "the matrix's ticket", files: [file()] }))).uploads[0]!.attachment_id;
  const tickets = (await ok(await api.get(`${INBOX}/tickets`, as(owner)))).items as { id: string; subject: string; team: { id: string } | null }[];
  k.none = tickets.find((item) => item.subject === "zebra ticket plain")!.id;
  k.sales = tickets.find((item) => item.subject === "zebra ticket sales")!.id;
  matrix.ticket = tickets.find((item) => item.subject === "the matrix's ticket")!.id;
  expect(tickets.find((item) => item.id === k.sales)!.team).toEqual({ id: salesTeam.id, name: "Sales" });
  // The operator API's reads carry it too (decisions.md: conversations and tickets carry `team`).
  const operatorTickets = (await ok(await api.get(`/api/v1/admin/tickets?site=${salesSite.id}`, { admin: true }))) as { id: string; team: unknown }[];
  expect(operatorTickets.find((item) => item.id === k.sales)!.team).toEqual({ id: salesTeam.id, name: "Sales" });
  expect((await ok(await api.get(`/api/v1/admin/conversations/${c.sales}`, { admin: true }))).team).toEqual({ id: salesTeam.id, name: "Sales" });
  const operatorList = (await ok(await api.get(`/api/v1/admin/conversations?site=${salesSite.id}`, { admin: true }))) as { id: string; team: unknown }[];
  expect(operatorList.find((item) => item.id === c.sales)!.team).toEqual({ id: salesTeam.id, name: "Sales" });
});

afterAll(abortEventStreams);

const state = async () => exceptActivity(await stateSnapshot());
const HIDDEN_FROM: Record<string, (keyof typeof actors)[]> = {};

describe("the role matrix, generated from the route files", () => {
  test("every inbox route is classified: about one thing (with `sees`), owner-only, public, or named with its leak test", async () => {
    const unclassified: string[] = [];
    for (const { method, template, contract } of await routeMethods("inbox")) {
      const key = `${method} ${template}`;
      const aboutOne = /^\/api\/v1\/inbox\/(conversations|tickets|attachments)\/\{id\}/.test(template);
      if (aboutOne && !contract.sees) unclassified.push(`${key}: about one conversation, ticket or file, but declares no \`sees\``);
      if (!aboutOne && !contract.sees && contract.role === "agent" && !(key in NOT_ABOUT_ONE)) unclassified.push(`${key}: an agent route not named in NOT_ABOUT_ONE`);
      if (contract.sees && contract.body && !(key in SAMPLE_BODIES)) unclassified.push(`${key}: no sample body for the matrix`);
    }
    expect(unclassified).toEqual([]);
  });

  test("a route about one conversation, ticket or file: hidden → 404 not_found and nothing changed; visible → never that answer", async () => {
    const targets = matrix;
    SAMPLE_BODIES["PUT /api/v1/inbox/conversations/{id}/team"] = { team_id: salesTeam.id };
    const mayNotSee = { conversation: ["support", "loner"], ticket: ["support", "loner"], file: ["support", "loner"] } as const;
    const routes = (await routeMethods("inbox")).filter((route) => route.contract.sees);
    expect(routes.length).toBeGreaterThanOrEqual(14);
    const hiddenAnswers: string[] = [];
    for (const { method, template, contract } of routes) {
      const key = `${method} ${template}`;
      const url = template.replace("{id}", encodeURIComponent(targets[contract.sees!]));
      const body = SAMPLE_BODIES[key];
      for (const name of mayNotSee[contract.sees!]) {
        const before = await state();
        const response = await call(method, url, as(actors[name], body === undefined ? {} : { body }));
        expect(response.status, `${key} as ${name}: ${JSON.stringify(response.json)}`).toBe(404);
        expectError(response, 404, "not_found");
        expect(await state(), `${key} as ${name} changed something`).toEqual(before);
        hiddenAnswers.push(response.json.message);
      }
    }
    const hidden = new Set(hiddenAnswers);
    expect(hidden.size).toBe(1);
    for (const { method, template, contract } of routes) {
      const key = `${method} ${template}`;
      const url = template.replace("{id}", encodeURIComponent(targets[contract.sees!]));
      const body = SAMPLE_BODIES[key];
      for (const name of ["owner", "sales"] as const) {
        const response = await call(method, url, as(actors[name], body === undefined ? {} : { body }));
        expect(response.status === 404 && hidden.has(response.json.message), `${key} as ${name}: ${JSON.stringify(response.json)}`).toBe(false);
        expect(response.status, `${key} as ${name}`).not.toBe(403);
      }
    }
  });

  test("an owner-only inbox route refuses every agent → 403 forbidden", async () => {
    const ownerOnly = (await routeMethods("inbox")).filter((route) => route.contract.role === "owner");
    expect(ownerOnly.length).toBeGreaterThan(20);
    for (const { method, template } of ownerOnly) {
      const url = template.replace(/\{[^}]+\}/g, "x");
      for (const name of ["sales", "support", "loner"] as const) expectError(await call(method, url, as(actors[name])), 403, "forbidden");
    }
  });

  test("an operator route refuses every session (it takes the operator token only) → 401 unauthorized", async () => {
    const operator = await routeMethods("admin");
    expect(operator.length).toBeGreaterThan(20);
    for (const { method, template } of operator) {
      const url = template.replace(/\{[^}]+\}/g, "x");
      for (const staff of Object.values(actors)) expectError(await call(method, url, as(staff)), 401, "unauthorized");
    }
  });
});

const ours = (ids: string[]) => ids.filter((id) => [...Object.values(c), ...Object.values(k)].includes(id)).sort();

describe("lists, counts and filters", () => {
  test("each actor's list, unread total and ticket list hold exactly what they may see", async () => {
    for (const [name, staff] of Object.entries(actors) as [keyof typeof actors, Staff][]) {
      const page = await ok(await api.get(`${INBOX}/conversations?status=all`, as(staff)));
      const seen = SEES[name]();
      expect(ours(page.items.map((item: { id: string }) => item.id)), name).toEqual(seen.filter((id) => Object.values(c).includes(id)).sort());
      // The total counts exactly the listed (visible) open conversations with unread visitor messages.
      const unread = page.items.filter((item: { status: string; unread_count: number }) => item.status === "open" && item.unread_count > 0);
      expect(page.unread_total, name).toBe(unread.length);
      expect(page.unread_total, name).toBeGreaterThanOrEqual(seen.filter((id) => Object.values(c).includes(id)).length);
      const tickets = await ok(await api.get(`${INBOX}/tickets`, as(staff)));
      expect(ours(tickets.items.map((item: { id: string }) => item.id)), name).toEqual(seen.filter((id) => Object.values(k).includes(id)).sort());
    }
  });

  test("?team= lists a team's conversations, or those of none, within what the member may see", async () => {
    const list = async (staff: Staff, team: string) => ours((await ok(await api.get(`${INBOX}/conversations?status=all&team=${team}`, as(staff)))).items.map((item: { id: string }) => item.id));
    expect(await list(owner, salesTeam.id)).toEqual([c.sales, c.salesToLoner, c.salesMentionsSupport].sort());
    expect(await list(owner, "none")).toEqual([c.none]);
    expect(await list(support, salesTeam.id)).toEqual([c.salesMentionsSupport]);
    expect(await list(loner, supportTeam.id)).toEqual([]);
    const item = (await ok(await api.get(`${INBOX}/conversations?status=all&team=${supportTeam.id}`, as(owner)))).items[0];
    expect(item.team).toEqual({ id: supportTeam.id, name: "Support" });
  });
});

describe("the visitor's other conversations", () => {
  test("a read lists and counts only the visitor's other conversations the member may see", async () => {
    const site = await createSite();
    const open = (await startConversation(site.id, { body: "first", client_id: "v1", visitor_id: "browser-42" })).conversationId;
    const hidden = (await startConversation(site.id, { body: "second", client_id: "v1", visitor_id: "browser-42" })).conversationId;
    await moveTo(hidden, supportTeam.id);
    const asSales = await ok(await api.get(`${INBOX}/conversations/${open}`, as(sales)));
    expect(asSales.visitor_conversations.map((item: { id: string }) => item.id)).toEqual([]);
    expect(asSales.visitor.conversation_count).toBe(1);
    const asSupport = await ok(await api.get(`${INBOX}/conversations/${open}`, as(support)));
    expect(asSupport.visitor_conversations.map((item: { id: string }) => item.id)).toEqual([hidden]);
    expect(asSupport.visitor.conversation_count).toBe(2);
  });
});

describe("search", () => {
  test("a word in every conversation and ticket finds only what the member may see", async () => {
    for (const [name, staff] of Object.entries(actors) as [keyof typeof actors, Staff][]) {
      const page = await ok(await api.get(`${INBOX}/search?q=zebra&limit=50`, as(staff)));
      expect(ours(page.items.map((item: { id: string }) => item.id)), name).toEqual([...SEES[name]()].sort());
    }
  });
});

describe("bulk actions and assignment", () => {
  test("a bulk action answers not_found for each hidden conversation and acts on the visible ones", async () => {
    const labels = await ok(await api.post(`${INBOX}/labels`, as(owner, { body: { name: "Bulk", color: "#112233" } })), 201);
    const result = await ok(await api.post(`${INBOX}/conversations/bulk`, as(loner, { body: { action: "label", ids: [c.sales, c.none], label_id: labels.id } })));
    expect(result.results).toEqual([
      { id: c.sales, ok: false, error: { code: "not_found", message: expect.any(String) } },
      { id: c.none, ok: true },
    ]);
  });

  test("a conversation or ticket is assigned only to a member who may see it", async () => {
    expectError(await api.post(`${INBOX}/conversations/${c.sales}/assign`, as(owner, { body: { member_id: support.id } })), 404, "member_not_found");
    expectError(await api.patch(`${INBOX}/tickets/${k.sales}`, as(owner, { body: { assignee_id: loner.id } })), 404, "member_not_found");
    await ok(await api.post(`${INBOX}/conversations/${c.sales}/assign`, as(owner, { body: { member_id: sales.id } })));
    await ok(await api.post(`${INBOX}/conversations/${c.sales}/assign`, as(owner, { body: { member_id: null } })));
  });
});

describe("moving between teams", () => {
  test("a move writes a team_changed timeline event; the team it left loses sight of it", async () => {
    const site = await createSite();
    const moved = (await startConversation(site.id, { body: "move me", client_id: "v1" })).conversationId;
    const answer = await ok(await api.put(`${INBOX}/conversations/${moved}/team`, as(sales, { body: { team_id: salesTeam.id } })));
    expect(answer).toEqual({ conversation_id: moved, team: { id: salesTeam.id, name: "Sales" } });
    await ok(await api.put(`${INBOX}/conversations/${moved}/team`, as(sales, { body: { team_id: supportTeam.id } })));
    expectError(await api.get(`${INBOX}/conversations/${moved}`, as(sales)), 404, "not_found");
    const read = await ok(await api.get(`${INBOX}/conversations/${moved}`, as(support)));
    expect(read.team).toEqual({ id: supportTeam.id, name: "Support" });
    const events = read.messages.filter((message: { event: string | null }) => message.event === "team_changed");
    expect(events.map((event: { details: Record<string, unknown> }) => [event.details.previousTeamName, event.details.teamName])).toEqual([
      [null, "Sales"],
      ["Sales", "Support"],
    ]);
    expectError(await api.put(`${INBOX}/conversations/${moved}/team`, as(support, { body: { team_id: "no-such-team" } })), 400, "invalid_request");
    // The operator's read carries the team too (the operator token sees everything).
    expect((await ok(await api.get(`/api/v1/admin/conversations/${moved}`, { admin: true }))).team).toEqual({ id: supportTeam.id, name: "Support" });
  });
});

describe("the event stream", () => {
  test("each actor is told only of conversations they may see", async () => {
    const streams = Object.fromEntries(await Promise.all(Object.entries(actors).map(async ([name, staff]) => [name, await openEventStream(staff.cookie)] as const)));
    for (const stream of Object.values(streams)) expect(await stream.ready()).toBe(true);
    // A note in the Support conversation, then one in the conversation every agent sees: once the
    // second has reached a stream, the first would have too.
    await ok(await api.post(`${INBOX}/conversations/${c.support}/messages`, as(owner, { body: { body: "support only", kind: "note" } })), 201);
    await ok(await api.post(`${INBOX}/conversations/${c.none}/messages`, as(owner, { body: { body: "everyone", kind: "note" } })), 201);
    const about = (name: string, id: string) => streams[name]!.events.some((event) => event.conversation_id === id);
    for (const name of Object.keys(actors)) expect(await streams[name]!.until(() => about(name, c.none)), name).toBe(true);
    expect(about("owner", c.support)).toBe(true);
    expect(about("support", c.support)).toBe(true);
    expect(about("sales", c.support)).toBe(false);
    expect(about("loner", c.support)).toBe(false);
  });

  test.runIf(Boolean(testDatabaseUrl()))("on PostgreSQL, a change another instance writes reaches each actor's stream only where they may see it", async () => {
    const streams = Object.fromEntries(await Promise.all(Object.entries(actors).map(async ([name, staff]) => [name, await openEventStream(staff.cookie)] as const)));
    for (const stream of Object.values(streams)) expect(await stream.ready()).toBe(true);
    // Another instance: its own connection, its own writes; the NOTIFY its triggers send reaches this one's listener.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query(`UPDATE conversations SET status = 'closed', closed_at = now() WHERE id = $1`, [c.salesToLoner]);
      await other.query(`UPDATE conversations SET status = 'closed', closed_at = now() WHERE id = $1`, [c.none]);
    } finally {
      await other.end();
    }
    const about = (name: string, id: string) => streams[name]!.events.some((event) => event.type === "conversation" && event.conversation_id === id);
    for (const name of Object.keys(actors)) expect(await streams[name]!.until(() => about(name, c.none)), name).toBe(true);
    expect(about("owner", c.salesToLoner)).toBe(true);
    expect(about("sales", c.salesToLoner)).toBe(true);
    expect(about("loner", c.salesToLoner)).toBe(true);
    expect(about("support", c.salesToLoner)).toBe(false);
  });
});

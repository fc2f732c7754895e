import { beforeAll, expect, test } from "vitest";
import { conversationListQuery } from "../../lib/contracts/inbox";
import { FEW_ROWS, listInboxConversations } from "../../lib/conversations/inbox-conversations";
import { api } from "../support/api";
import { createSite, startConversation } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";

// The inbox list reads a page from one of three sources (lib/conversations/inbox-conversations.ts):
// a walk of every conversation in the sort's order, or, for a label on few conversations or the
// member's few mentions, just those rows, sorted. Each must give the same pages as the walk, with
// every filter, sort and cursor.

let owner: Staff;
let agent: Staff;
let siteId: string;
let labelId: string;
const labelled: string[] = [];
const mentioned: string[] = [];

const ok = (response: { status: number; json: { result?: unknown } }, status = 200) => {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  return response.json.result;
};

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  siteId = (await createSite()).id;
  labelId = (ok(await api.post("/api/v1/inbox/labels", as(owner, { body: { name: `Sources ${Date.now().toString(36)}`, color: "#3366cc" } })), 201) as { id: string }).id;
  for (let i = 0; i < 9; i++) {
    const id = (await startConversation(siteId, { body: `question ${i}`, client_id: `s${i}` })).conversationId;
    if (i % 4 !== 3) {
      ok(await api.put(`/api/v1/inbox/conversations/${id}/labels`, as(agent, { body: { labels: [labelId] } })));
      labelled.push(id);
    }
    if (i % 3 !== 1) {
      ok(await api.post(`/api/v1/inbox/conversations/${id}/messages`, as(owner, { body: { body: "@Andy Agent have a look", kind: "note", mentions: [agent.id] } })), 201);
      mentioned.push(id);
    }
    // Mentioned twice: still one row.
    if (i === 0) ok(await api.post(`/api/v1/inbox/conversations/${id}/messages`, as(owner, { body: { body: "@Andy Agent again", kind: "note", mentions: [agent.id] } })), 201);
    if (i % 3 === 0) ok(await api.post(`/api/v1/inbox/conversations/${id}/close`, as(agent)));
    if (i % 2 === 0) ok(await api.post(`/api/v1/inbox/conversations/${id}/assign`, as(agent, { body: { member_id: agent.id } })));
  }
});

/** Every page of the list with these filters (limit 2), as the agent, from the source the threshold picks. */
async function pages(filters: Record<string, string>, fewRows: number): Promise<string[][]> {
  const member = { id: agent.id, name: "Andy Agent", email: agent.email, role: agent.role, hasPicture: false };
  const seen: string[][] = [];
  let cursor: string | null = null;
  do {
    const query = conversationListQuery.parse({ ...filters, site: siteId, limit: "2", ...(cursor ? { cursor } : {}) });
    const page = await listInboxConversations(member, query, { fewRows });
    seen.push(page.items.map((item) => item.id));
    cursor = page.next_cursor;
  } while (cursor);
  return seen;
}

const OTHER_FILTERS: Record<string, string>[] = [
  {},
  { status: "all" },
  { status: "closed" },
  { status: "all", assigned: "me" },
  { status: "all", assigned: "unassigned" },
  { status: "all", sort: "waiting" },
  { status: "all", sort: "sla" },
];

test.each([
  ["a label", () => ({ label: labelId })],
  ["mentioning me", () => ({ mentioned: "me" })],
  ["both", () => ({ label: labelId, mentioned: "me" })],
])("%s: read from its own rows, the same pages as the walk with every other filter, sort and cursor", async (_, filter) => {
  for (const other of OTHER_FILTERS) {
    const filters = { ...other, ...filter() };
    const walked = await pages(filters, -1);
    expect(walked.flat().length, JSON.stringify(filters)).toBeGreaterThan(0);
    expect(await pages(filters, FEW_ROWS), JSON.stringify(filters)).toEqual(walked);
  }
});

test("every conversation of the label, and every one the member is mentioned in, is listed once", async () => {
  expect((await pages({ status: "all", label: labelId }, FEW_ROWS)).flat().sort()).toEqual([...labelled].sort());
  expect((await pages({ status: "all", mentioned: "me" }, FEW_ROWS)).flat().sort()).toEqual([...mentioned].sort());
});

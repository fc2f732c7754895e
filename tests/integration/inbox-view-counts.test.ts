import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { inboxViewCounts, VIEW_COUNT_CAP } from "../../lib/conversations/view-counts";
import { api, type ApiResponse } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, startConversation } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";

// The inbox rail's views (docs/inbox.md, "Views"): what each counts, for whom, and the cap. This file
// has its own database, so every count starts at nothing.

const INBOX = "/api/v1/inbox";
let owner: Staff, sales: Staff, loner: Staff;
let salesTeam: string;
const c = { mine: "", unassigned: "", snoozed: "", closed: "", sales: "", mentioned: "" };

function ok(response: ApiResponse, status = 200) {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  return response.json.result;
}

beforeAll(async () => {
  [owner, sales, loner] = await Promise.all([createStaff("owner", "Olga Owner"), createStaff("agent", "Sam Sales"), createStaff("agent", "Lou Loner")]);
  salesTeam = ok(await api.post(`${INBOX}/teams`, { ...as(owner), body: { name: "Sales", member_ids: [sales.id] } }), 201).id;
  const site = await createSite();
  for (const key of Object.keys(c) as (keyof typeof c)[]) c[key] = (await startConversation(site.id, { body: `About ${key}` })).conversationId;
  ok(await api.post(`${INBOX}/conversations/${c.mine}/assign`, { ...as(loner), body: { member_id: loner.id } }));
  ok(await api.post(`${INBOX}/conversations/${c.snoozed}/snooze`, { ...as(owner), body: { until: new Date(Date.now() + 3_600_000).toISOString() } }));
  ok(await api.post(`${INBOX}/conversations/${c.closed}/close`, as(owner)));
  ok(await api.put(`${INBOX}/conversations/${c.sales}/team`, { ...as(owner), body: { team_id: salesTeam } }));
  ok(await api.put(`${INBOX}/conversations/${c.mentioned}/team`, { ...as(owner), body: { team_id: salesTeam } }));
  ok(await api.post(`${INBOX}/conversations/${c.mentioned}/messages`, { ...as(owner), body: { body: "@Lou Loner have a look", kind: "note", mentions: [loner.id] } }), 201);
});

describe("the rail's view counts", () => {
  test("each view counts the open conversations the member may see; Snoozed the snoozed ones", async () => {
    // Open: mine (assigned to Lou), unassigned, sales and mentioned (Sales' team); snoozed and closed are not open.
    expect(await inboxViewCounts({ id: owner.id, role: "owner" })).toEqual({
      mine: 0,
      unassigned: 3,
      mentions: 0,
      snoozed: 1,
      all: 4,
      teams: [{ id: salesTeam, name: "Sales", count: 2 }],
    });
    // Lou is in no team: Sales' conversations are hidden, except the one that mentions Lou.
    expect(await inboxViewCounts({ id: loner.id, role: "agent" })).toEqual({ mine: 1, unassigned: 2, mentions: 1, snoozed: 1, all: 3, teams: [] });
    expect(await inboxViewCounts({ id: sales.id, role: "agent" })).toEqual({
      mine: 0,
      unassigned: 3,
      mentions: 0,
      snoozed: 1,
      all: 4,
      teams: [{ id: salesTeam, name: "Sales", count: 2 }],
    });
  });

  test("the Mentions view lists the conversations whose notes mention the member, and nothing else", async () => {
    const list = async (staff: Staff) => ok(await api.get(`${INBOX}/conversations?mentioned=me`, as(staff))).items.map((item: { id: string }) => item.id);
    expect(await list(loner)).toEqual([c.mentioned]);
    expect(await list(owner)).toEqual([]);
    expectError(await api.get(`${INBOX}/conversations?mentioned=you`, as(loner)), 400, "invalid_request");
  });

  test("a count stops at the cap, however many conversations the view holds", async () => {
    // Copies of the unassigned open conversation, each under its own id.
    await (
      await db()
    ).$executeRawUnsafe(
      `INSERT INTO conversations SELECT (jsonb_populate_record(c, jsonb_build_object('id', c.id || '-copy-' || g))).* FROM conversations c, generate_series(1, $2::int) g WHERE c.id = $1`,
      c.unassigned,
      VIEW_COUNT_CAP + 5,
    );
    const counts = await inboxViewCounts({ id: owner.id, role: "owner" });
    expect(counts.unassigned).toBe(VIEW_COUNT_CAP);
    expect(counts.all).toBe(VIEW_COUNT_CAP);
    expect(counts.snoozed).toBe(1);
  });
});

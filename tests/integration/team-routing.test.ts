import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, startConversation } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";

// Routing inside a team (decisions.md, round 4, "Teams"; docs/teams.md): a conversation with a
// team is routed by the team's own `assignment` and `max_open`, among the team's members only;
// teams themselves: names unique without case, members who can sign in, owners write.

const INBOX = "/api/v1/inbox";
let owner: Staff, salesOne: Staff, salesTwo: Staff, outsider: Staff;

async function setOnline(...staff: Staff[]) {
  const now = new Date();
  await (await db()).member.updateMany({ where: { id: { in: staff.map((s) => s.id) } }, data: { inboxTabAt: now, inboxInputAt: now } });
}

const assigneeOf = async (conversationId: string) =>
  (await (await db()).conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { assignedMemberId: true, teamId: true } }));

async function team(body: Record<string, unknown>) {
  const response = await api.post(`${INBOX}/teams`, as(owner, { body }));
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.result as { id: string; name: string; member_ids: string[]; assignment: string; max_open: number };
}

async function siteWithTeam(teamId: string, settings: Record<string, unknown> = {}) {
  const site = await createSite();
  const response = await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { default_team_id: teamId, ...settings } });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  expect(response.json.result.default_team_id).toBe(teamId);
  return site;
}

beforeAll(async () => {
  [owner, salesOne, salesTwo, outsider] = [await createStaff("owner"), await createStaff(), await createStaff(), await createStaff()];
});

describe("routing inside a team", () => {
  test("a round-robin team hands its conversations to its own online members, in turn, below the team's max_open", async () => {
    const sales = await team({ name: "Sales RR", member_ids: [salesOne.id, salesTwo.id], assignment: "round_robin", max_open: 1 });
    // The site itself assigns manually: the team's mode decides.
    const site = await siteWithTeam(sales.id);
    await setOnline(salesOne, salesTwo, outsider, owner);
    const taken = [];
    for (let i = 0; i < 3; i++) taken.push(await assigneeOf((await startConversation(site.id, { body: `hello ${i}`, client_id: "v1" })).conversationId));
    expect(taken.every((row) => row.teamId === sales.id)).toBe(true);
    expect(taken.slice(0, 2).map((row) => row.assignedMemberId).sort()).toEqual([salesOne.id, salesTwo.id].sort());
    expect(taken[2]!.assignedMemberId).toBeNull(); // both at the team's max_open of 1; nobody outside the team takes it
  });

  test("a manual team leaves its conversations unassigned, even on a round-robin site", async () => {
    const manual = await team({ name: "Manual team", member_ids: [salesOne.id] });
    const site = await siteWithTeam(manual.id, { assignment: "round_robin" });
    await setOnline(salesOne, outsider);
    const started = await startConversation(site.id, { body: "hi", client_id: "v1" });
    expect(await assigneeOf(started.conversationId)).toEqual({ assignedMemberId: null, teamId: manual.id });
  });

  test("an open, unassigned conversation moved into a round-robin team is routed inside it", async () => {
    const rr = await team({ name: "Moved into", member_ids: [outsider.id], assignment: "round_robin", max_open: 5 });
    await setOnline(outsider);
    const started = await startConversation((await createSite()).id, { body: "hi", client_id: "v1" });
    const moved = await api.put(`${INBOX}/conversations/${started.conversationId}/team`, as(salesOne, { body: { team_id: rr.id } }));
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    expect(await assigneeOf(started.conversationId)).toEqual({ assignedMemberId: outsider.id, teamId: rr.id });
  });
});

describe("teams", () => {
  test("owners create, change and delete teams; agents read them; names are unique without case", async () => {
    const created = await team({ name: "Billing", member_ids: [salesOne.id] });
    expect(created).toMatchObject({ name: "Billing", member_ids: [salesOne.id], assignment: "manual", max_open: 10 });
    expectError(await api.post(`${INBOX}/teams`, as(owner, { body: { name: "BILLING" } })), 409, "already_exists");
    expectError(await api.post(`${INBOX}/teams`, as(salesOne, { body: { name: "Mine" } })), 403, "forbidden");
    const unknownMember = await api.post(`${INBOX}/teams`, as(owner, { body: { name: "Ghosts", member_ids: ["nobody"] } }));
    expectError(unknownMember, 400, "invalid_request");
    expect(unknownMember.json.result.fields).toEqual([{ path: "member_ids.0", problem: expect.any(String) }]);
    for (const body of [{ name: "" }, { name: "x".repeat(61) }, { name: "Ok", assignment: "random" }, { name: "Ok", max_open: 0 }, { name: "Ok", extra: 1 }]) {
      expectError(await api.post(`${INBOX}/teams`, as(owner, { body })), 400, "invalid_request");
    }
    const changed = await api.patch(`${INBOX}/teams/${created.id}`, as(owner, { body: { member_ids: [salesTwo.id], max_open: 3, assignment: "round_robin" } }));
    expect(changed.json.result).toMatchObject({ member_ids: [salesTwo.id], max_open: 3, assignment: "round_robin" });
    const listed = await api.get(`${INBOX}/teams`, as(salesOne));
    expect(listed.json.result.map((item: { name: string }) => item.name)).toContain("Billing");
    expectError(await api.patch(`${INBOX}/teams/nope`, as(owner, { body: { name: "X" } })), 404, "not_found");

    // Deleting a team leaves what it held without a team, and its sites without a default team.
    const site = await siteWithTeam(created.id);
    const started = await startConversation(site.id, { body: "hi", client_id: "v1" });
    expect((await api.delete(`${INBOX}/teams/${created.id}`, as(owner))).json.result).toEqual({ id: created.id, deleted: true });
    expect((await assigneeOf(started.conversationId)).teamId).toBeNull();
    expect((await api.get(`/api/v1/admin/sites`, { admin: true })).json.result.find((item: { id: string }) => item.id === site.id).default_team_id).toBeNull();
    expectError(await api.delete(`${INBOX}/teams/${created.id}`, as(owner)), 404, "not_found");
    expectError(await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { default_team_id: "no-such-team" } }), 400, "invalid_request");
  });
});

describe("departments", () => {
  test("a start takes one of the site's departments and lands in that team, routed inside it; any other team_id is 400, nothing started", async () => {
    const billing = await team({ name: "Dept billing", member_ids: [salesTwo.id], assignment: "round_robin", max_open: 50 });
    const other = await team({ name: "Dept other" });
    const site = await createSite();
    const saved = await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { departments: [{ team_id: billing.id, label: "Billing" }] } });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json.result.departments).toEqual([{ team_id: billing.id, label: "Billing" }]);
    await setOnline(salesTwo);
    const started = await startConversation(site.id, { body: "about my invoice", client_id: "v1", team_id: billing.id });
    expect(await assigneeOf(started.conversationId)).toEqual({ assignedMemberId: salesTwo.id, teamId: billing.id });

    const before = await (await db()).conversation.count();
    for (const team_id of [other.id, "no-such-team"]) {
      const refused = await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: "https://shop.example", body: { body: "hi", team_id } });
      expectError(refused, 400, "invalid_request");
      expect(refused.json.result.fields).toEqual([{ path: "team_id", problem: expect.any(String) }]);
    }
    expect(await (await db()).conversation.count()).toBe(before);

    const badDepartments = [
      [{ team_id: "no-such-team", label: "Ghost" }],
      [{ team_id: billing.id, label: "" }],
      [{ team_id: billing.id, label: "A" }, { team_id: billing.id, label: "B" }],
      Array.from({ length: 11 }, (_, i) => ({ team_id: billing.id, label: `L${i}` })),
    ];
    for (const departments of badDepartments) {
      expectError(await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { departments } }), 400, "invalid_request");
    }
  });
});

describe("departments in the widget config", () => {
  test("the config lists the site's departments; a deleted team leaves them", async () => {
    const first = await team({ name: "Config first" });
    const second = await team({ name: "Config second" });
    const site = await createSite();
    const departments = [
      { team_id: first.id, label: "Sales" },
      { team_id: second.id, label: "Support" },
    ];
    expect((await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { departments } })).status).toBe(200);
    const config = async () => (await api.get(`/api/v1/chat/widget/${site.id}/config`, { origin: "https://shop.example" })).json.result.departments;
    expect(await config()).toEqual(departments);
    expect((await api.delete(`${INBOX}/teams/${first.id}`, as(owner))).status).toBe(200);
    expect(await config()).toEqual([{ team_id: second.id, label: "Support" }]);
    expectError(await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: "https://shop.example", body: { body: "hi", team_id: first.id } }), 400, "invalid_request");
  });
});

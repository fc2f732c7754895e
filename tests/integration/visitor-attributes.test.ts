import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { api, type ApiResponse } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, startConversation } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";

// Visitor attributes (decisions.md, round 4, "Visitor attributes and the pre-chat form";
// docs/attributes.md): typed definitions, values on conversations, typed list filters whose
// values reach SQL only as bound parameters.

const INBOX = "/api/v1/inbox";
let owner: Staff, agent: Staff, salesAgent: Staff;
let siteId: string;
let salesTeam: { id: string };

async function ok(response: ApiResponse, status = 200) {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  return response.json.result;
}

const define = async (body: Record<string, unknown>) => ok(await api.post(`${INBOX}/attributes`, as(owner, { body })), 201);
const patch = (id: string, body: unknown, staff: Staff = agent) => api.patch(`${INBOX}/conversations/${id}/attributes`, as(staff, { body }));
const listIds = async (query: string, staff: Staff = owner) =>
  ((await ok(await api.get(`${INBOX}/conversations?status=all&${query}`, as(staff)))).items as { id: string }[]).map((item) => item.id);
const start = async (body = "hello") => (await startConversation(siteId, { body, client_id: "v1" })).conversationId;
const attributesOf = async (id: string) => (await (await db()).conversation.findUniqueOrThrow({ where: { id }, select: { attributes: true } })).attributes;

beforeAll(async () => {
  [owner, agent, salesAgent] = [await createStaff("owner"), await createStaff(), await createStaff()];
  siteId = (await createSite()).id;
  salesTeam = await ok(await api.post(`${INBOX}/teams`, as(owner, { body: { name: "Sales", member_ids: [salesAgent.id] } })), 201);
  await define({ key: "plan", label: "Plan", type: "list", options: ["free", "pro", "enterprise"] });
  await define({ key: "seats", label: "Seats", type: "number" });
  await define({ key: "renewal", label: "Renewal", type: "date" });
  await define({ key: "vip", label: "VIP", type: "boolean" });
  await define({ key: "company", label: "Company", type: "text" });
  await define({ key: "crm", label: "CRM record", type: "link" });
});

describe("definitions", () => {
  test("members read them by key; owners create them; agents may not", async () => {
    const list = await ok(await api.get(`${INBOX}/attributes`, as(agent)));
    expect(list.map((row: { key: string }) => row.key)).toEqual(["company", "crm", "plan", "renewal", "seats", "vip"]);
    expect(list.find((row: { key: string }) => row.key === "plan")).toMatchObject({ label: "Plan", type: "list", options: ["free", "pro", "enterprise"] });
    expect(list.find((row: { key: string }) => row.key === "seats")).toMatchObject({ type: "number", options: [] });
    expectError(await api.post(`${INBOX}/attributes`, as(agent, { body: { key: "agent_made", label: "No", type: "text" } })), 403, "forbidden");
    expectError(await api.delete(`${INBOX}/attributes/plan`, as(agent)), 403, "forbidden");
    expect(await (await db()).attributeDefinition.count({ where: { key: "agent_made" } })).toBe(0);
  });

  test("a bad key, label, type or options is 400; a key taken is 409", async () => {
    const bad = [
      { key: "Plan", label: "x", type: "text" },
      { key: "has space", label: "x", type: "text" },
      { key: "a".repeat(41), label: "x", type: "text" },
      { key: "", label: "x", type: "text" },
      { key: "name", label: "x", type: "text" },
      { key: "ok_key", label: "", type: "text" },
      { key: "ok_key", label: "x".repeat(61), type: "text" },
      { key: "ok_key", label: "x", type: "color" },
      { key: "ok_key", label: "x", type: "list" },
      { key: "ok_key", label: "x", type: "list", options: ["a", "a"] },
      { key: "ok_key", label: "x", type: "text", options: ["a"] },
      { key: "ok_key", label: "x", type: "text", extra: true },
      { key: { not: "" }, label: "x", type: "text" },
    ];
    for (const body of bad) expectError(await api.post(`${INBOX}/attributes`, as(owner, { body })), 400, "invalid_request");
    expectError(await api.post(`${INBOX}/attributes`, as(owner, { body: { key: "plan", label: "Again", type: "text" } })), 409, "already_exists");
    expect(await (await db()).attributeDefinition.count({ where: { key: "ok_key" } })).toBe(0);
  });

  test("deleting one takes its values off every conversation; an unknown key is 404", async () => {
    await define({ key: "temp", label: "Temporary", type: "text" });
    const id = await start();
    await ok(await patch(id, { attributes: { temp: "x", company: "Acme" } }));
    expect(await ok(await api.delete(`${INBOX}/attributes/temp`, as(owner)))).toEqual({ key: "temp", deleted: true });
    expect(await attributesOf(id)).toEqual({ company: "Acme" });
    expectError(await api.delete(`${INBOX}/attributes/temp`, as(owner)), 404, "not_found");
  });
});

describe("values on a conversation", () => {
  test("set typed values, read them on the single read and the list item, and remove one with null", async () => {
    const id = await start();
    const result = await ok(
      await patch(id, { attributes: { plan: "pro", seats: 12, renewal: "2027-03-01", vip: true, company: "  Acme  ", crm: "https://crm.example/acme" } }),
    );
    expect(result).toEqual({ conversation_id: id, attributes: { plan: "pro", seats: 12, renewal: "2027-03-01", vip: true, company: "Acme", crm: "https://crm.example/acme" } });
    const read = await ok(await api.get(`${INBOX}/conversations/${id}`, as(agent)));
    expect(read.attributes).toEqual(result.attributes);
    expect(read.consent).toBeNull();
    const list = await ok(await api.get(`${INBOX}/conversations?status=all`, as(agent)));
    expect(list.items.find((item: { id: string }) => item.id === id).attributes).toEqual(result.attributes);
    expect((await ok(await patch(id, { attributes: { vip: null, seats: 13 } }))).attributes).toEqual({ plan: "pro", seats: 13, renewal: "2027-03-01", company: "Acme", crm: "https://crm.example/acme" });
    // A bare {key: value} body is read the same as {attributes: {...}}.
    expect((await ok(await patch(id, { plan: "enterprise" }))).attributes.plan).toBe("enterprise");
  });

  test("a change writes one staff timeline event naming it; an unchanged value writes none", async () => {
    const id = await start();
    await ok(await patch(id, { attributes: { plan: "pro" } }));
    await ok(await patch(id, { attributes: { plan: "pro" } }));
    const read = await ok(await api.get(`${INBOX}/conversations/${id}`, as(owner)));
    const events = read.messages.filter((message: { event: string | null }) => message.event === "attributes_changed");
    expect(events).toHaveLength(1);
    expect(events[0].details).toMatchObject({ actorMemberId: agent.id, changes: [{ key: "plan", label: "Plan", from: null, to: "pro" }] });
    expect(events[0].kind).toBe("note");
  });

  test("a value of the wrong type or an unknown key is 400 and changes nothing", async () => {
    const id = await start();
    await ok(await patch(id, { attributes: { seats: 5 } }));
    const bad = [
      { seats: "5" },
      { seats: "five" },
      { seats: true },
      { renewal: "2027-02-30" },
      { renewal: "tomorrow" },
      { renewal: 20270101 },
      { vip: "yes" },
      { plan: "gold" },
      { plan: 1 },
      { company: "two\nlines" },
      { company: "x".repeat(501) },
      { crm: "javascript:alert(1)" },
      { crm: "not a url" },
      { unknown_key: "x" },
      { "Bad Key": "x" },
      { seats: { not: "" } },
      { seats: [1] },
      { seats: 6, plan: "gold" },
    ];
    for (const attributes of bad) expectError(await patch(id, { attributes }), 400, "invalid_request");
    expectError(await patch(id, { attributes: { seats: 6 }, extra: 1 }), 400, "invalid_request");
    expectError(await patch(id, "seats"), 400, "invalid_request");
    expect(await attributesOf(id)).toEqual({ seats: 5 });
  });

  test("an unknown conversation is 404; a conversation hidden by its team is 404 and unchanged", async () => {
    expectError(await patch("no-such-conversation", { attributes: { seats: 1 } }), 404, "conversation_not_found");
    const id = await start();
    await ok(await api.put(`${INBOX}/conversations/${id}/team`, as(owner, { body: { team_id: salesTeam.id } })));
    expectError(await patch(id, { attributes: { seats: 1 } }, agent), 404, "not_found");
    expect(await attributesOf(id)).toEqual({});
    expect((await ok(await patch(id, { attributes: { seats: 1 } }, salesAgent))).attributes).toEqual({ seats: 1 });
  });
});

describe("list filters", () => {
  let free: string, pro: string, big: string, none: string;
  beforeAll(async () => {
    [free, pro, big, none] = [await start("free"), await start("pro"), await start("big"), await start("none")];
    await ok(await patch(free, { attributes: { plan: "free", seats: 1, renewal: "2026-01-15", vip: false, company: "Tiny" } }));
    await ok(await patch(pro, { attributes: { plan: "pro", seats: 10, renewal: "2026-06-01", vip: true, company: "Acme" } }));
    await ok(await patch(big, { attributes: { plan: "enterprise", seats: 250.5, renewal: "2027-01-01", vip: true, company: "Mega" } }));
  });
  const within = (ids: string[]) => ids.filter((id) => [free, pro, big, none].includes(id)).sort();
  const sorted = (...ids: string[]) => [...ids].sort();

  test("equality for each type", async () => {
    expect(within(await listIds("attr.plan=pro"))).toEqual([pro]);
    expect(within(await listIds("attr.vip=true"))).toEqual(sorted(pro, big));
    expect(within(await listIds("attr.vip=false"))).toEqual([free]);
    expect(within(await listIds("attr.seats=10"))).toEqual([pro]);
    expect(within(await listIds("attr.seats=250.5"))).toEqual([big]);
    expect(within(await listIds("attr.renewal=2026-06-01"))).toEqual([pro]);
    expect(within(await listIds(`attr.company=${encodeURIComponent("Acme")}`))).toEqual([pro]);
    expect(within(await listIds("attr.company=acme"))).toEqual([]);
  });

  test("gt and lt for numbers and dates, combined with each other and with equality", async () => {
    expect(within(await listIds("attr.seats.gt=5"))).toEqual(sorted(pro, big));
    expect(within(await listIds("attr.seats.lt=10"))).toEqual([free]);
    expect(within(await listIds("attr.seats.gt=1&attr.seats.lt=100"))).toEqual([pro]);
    expect(within(await listIds("attr.renewal.gt=2026-03-01"))).toEqual(sorted(pro, big));
    expect(within(await listIds("attr.renewal.lt=2026-12-31&attr.vip=true"))).toEqual([pro]);
    expect(within(await listIds("attr.seats.gt=-1"))).toEqual(sorted(free, pro, big));
  });

  test("an unknown key, a bad value, or gt/lt on an unordered type is 400", async () => {
    const bad = [
      "attr.nope=1",
      "attr.seats=ten",
      "attr.seats.gt=1e999",
      "attr.renewal=2026-13-01",
      "attr.vip=yes",
      "attr.plan=gold",
      "attr.plan.gt=a",
      "attr.vip.lt=true",
      "attr.company.gt=a",
      "attr.seats.between=1",
      "attr.=1",
      "attr.Plan=pro",
      "unknown=1",
    ];
    for (const query of bad) expectError(await api.get(`${INBOX}/conversations?${query}`, as(owner)), 400, "invalid_request");
  });

  test("SQL-shaped keys and values are 400 or match nothing, never a 500, and change nothing", async () => {
    const before = await (await db()).conversation.count();
    const attacks = [
      `attr.${encodeURIComponent("plan' OR '1'='1")}=pro`,
      `attr.${encodeURIComponent("plan\"); DROP TABLE conversations; --")}=x`,
      `attr.${encodeURIComponent("plan->>'x'")}=1`,
      `attr.company=${encodeURIComponent("x' OR '1'='1")}`,
      `attr.company=${encodeURIComponent("Acme'); DELETE FROM conversations; --")}`,
      `attr.company=${encodeURIComponent('{"$ne": null}')}`,
      `attr.seats=${encodeURIComponent("1 OR 1=1")}`,
      `attr.renewal.gt=${encodeURIComponent("2020-01-01' OR 'a'='a")}`,
      `attr.plan=${encodeURIComponent("pro' --")}`,
    ];
    for (const query of attacks) {
      const response = await api.get(`${INBOX}/conversations?status=all&${query}`, as(owner));
      expect(response.status, `${query}: ${JSON.stringify(response.json)}`).not.toBe(500);
      if (response.status === 200) expect(within(response.json.result.items.map((item: { id: string }) => item.id)), query).toEqual([]);
      else expectError(response, 400, "invalid_request");
    }
    expect(await (await db()).conversation.count()).toBe(before);
    expect(await (await db()).attributeDefinition.count()).toBeGreaterThanOrEqual(6);
    expect(within(await listIds("attr.plan=pro"))).toEqual([pro]);
  });

  test("filters keep team visibility: an agent outside the team does not see a matching hidden conversation", async () => {
    const hidden = await start("hidden");
    await ok(await patch(hidden, { attributes: { plan: "pro", seats: 10 } }, owner));
    await ok(await api.put(`${INBOX}/conversations/${hidden}/team`, as(owner, { body: { team_id: salesTeam.id } })));
    expect(await listIds("attr.plan=pro&attr.seats=10", owner)).toContain(hidden);
    expect(await listIds("attr.plan=pro&attr.seats=10", agent)).not.toContain(hidden);
    expect(await listIds("attr.plan=pro&attr.seats=10", salesAgent)).toContain(hidden);
  });
});

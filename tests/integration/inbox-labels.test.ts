import { beforeAll, describe, expect, test } from "vitest";
import { subscribeInbox, type InboxEvent } from "../../lib/realtime/inbox-signals";
import { api, type ApiResponse } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, openConversation, ORIGIN, startConversation, type Started } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { exceptActivity, stateSnapshot } from "../support/state-snapshot";

// Labels (decisions.md, round 3): owners create, rename and delete them; every member applies them
// to conversations; the inbox list filters by one, with its other filters.

const LABELS = "/api/v1/inbox/labels";
let owner: Staff;
let agent: Staff;
let started: Started & { site: { id: string } };

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  started = await openConversation({ body: "Hello", client_id: "v1", name: "Vera Visitor" });
});

const labelsOf = (conversationId: string) => `/api/v1/inbox/conversations/${conversationId}/labels`;
let made = 0;
async function createLabel(name = `Label ${++made} ${Math.random().toString(36).slice(2, 6)}`, color = "#3366cc") {
  const response = await api.post(LABELS, as(owner, { body: { name, color } }));
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.result as { id: string; name: string; color: string };
}

const state = async () => exceptActivity(await stateSnapshot());
async function expectRefusedUnchanged(send: () => Promise<ApiResponse>, status: number, code: string): Promise<ApiResponse> {
  const before = await state();
  const response = await send();
  expectError(response, status, code);
  expect(await state()).toEqual(before);
  return response;
}

const ids = (items: { id: string }[]) => items.map((item) => item.id);

describe("labels: who may do what", () => {
  test("every route without a session → 401 unauthorized, nothing changed", async () => {
    const label = await createLabel();
    for (const send of [
      () => api.get(LABELS, as(null)),
      () => api.post(LABELS, as(null, { body: { name: "New", color: "#000000" } })),
      () => api.patch(`${LABELS}/${label.id}`, as(null, { body: { name: "Renamed" } })),
      () => api.delete(`${LABELS}/${label.id}`, as(null)),
      () => api.put(labelsOf(started.conversationId), as(null, { body: { labels: [label.id] } })),
      () => api.get(`/api/v1/inbox/conversations?label=${label.id}`, as(null)),
    ]) {
      await expectRefusedUnchanged(send, 401, "unauthorized");
    }
  });

  test("an agent may apply labels but not create, rename or delete them → 403 forbidden, nothing changed", async () => {
    const label = await createLabel();
    await expectRefusedUnchanged(() => api.post(LABELS, as(agent, { body: { name: "Agent's", color: "#000000" } })), 403, "forbidden");
    await expectRefusedUnchanged(() => api.patch(`${LABELS}/${label.id}`, as(agent, { body: { name: "Renamed" } })), 403, "forbidden");
    await expectRefusedUnchanged(() => api.delete(`${LABELS}/${label.id}`, as(agent)), 403, "forbidden");
    expect((await api.get(LABELS, as(agent))).status).toBe(200);
    const applied = await api.put(labelsOf(started.conversationId), as(agent, { body: { labels: [label.id] } }));
    expect(applied.status).toBe(200);
    expect((await api.put(labelsOf(started.conversationId), as(agent, { body: { labels: [] } }))).status).toBe(200);
  });

  test("state changes without the inbox's Origin → 403 origin_not_allowed, nothing changed", async () => {
    const label = await createLabel();
    for (const origin of [null, "https://evil.example", ORIGIN]) {
      await expectRefusedUnchanged(() => api.post(LABELS, as(owner, { origin, body: { name: "Cross-site", color: "#000000" } })), 403, "origin_not_allowed");
      await expectRefusedUnchanged(() => api.patch(`${LABELS}/${label.id}`, as(owner, { origin, body: { color: "#ffffff" } })), 403, "origin_not_allowed");
      await expectRefusedUnchanged(() => api.delete(`${LABELS}/${label.id}`, as(owner, { origin })), 403, "origin_not_allowed");
      await expectRefusedUnchanged(() => api.put(labelsOf(started.conversationId), as(agent, { origin, body: { labels: [label.id] } })), 403, "origin_not_allowed");
    }
  });
});

describe("labels: input", () => {
  test("bad label bodies → 400 invalid_request naming the field, nothing changed", async () => {
    const label = await createLabel();
    const bad: [Record<string, unknown>, string][] = [
      [{ name: "", color: "#123456" }, "name"],
      [{ name: "   ", color: "#123456" }, "name"],
      [{ name: "n".repeat(41), color: "#123456" }, "name"],
      [{ name: "Two\nlines", color: "#123456" }, "name"],
      [{ name: "Invisible\u200B", color: "#123456" }, "name"],
      [{ name: "Red", color: "red" }, "color"],
      [{ name: "Red", color: "#fff" }, "color"],
      [{ name: "Red", color: "#12345g" }, "color"],
      [{ name: "Red", color: "123456" }, "color"],
      [{ name: "Red" }, "color"],
      [{ name: "Red", color: "#123456", id: "mine" }, "id"],
    ];
    for (const [body, field] of bad) {
      const response = await expectRefusedUnchanged(() => api.post(LABELS, as(owner, { body })), 400, "invalid_request");
      expect(response.json.result.fields.map((entry: { path: string }) => entry.path), JSON.stringify(body)).toContain(field);
    }
    await expectRefusedUnchanged(() => api.patch(`${LABELS}/${label.id}`, as(owner, { body: {} })), 400, "invalid_request");
    await expectRefusedUnchanged(() => api.patch(`${LABELS}/${label.id}`, as(owner, { body: { color: "blue" } })), 400, "invalid_request");
  });

  test("a name taken without regard to case → 409 already_exists, nothing changed", async () => {
    const taken = await createLabel(`Urgent ${Date.now().toString(36)}`);
    await expectRefusedUnchanged(() => api.post(LABELS, as(owner, { body: { name: taken.name.toUpperCase(), color: "#000000" } })), 409, "already_exists");
    await expectRefusedUnchanged(() => api.post(LABELS, as(owner, { body: { name: `  ${taken.name.toLowerCase()} `, color: "#000000" } })), 409, "already_exists");
    const other = await createLabel();
    await expectRefusedUnchanged(() => api.patch(`${LABELS}/${other.id}`, as(owner, { body: { name: taken.name.toLowerCase() } })), 409, "already_exists");
    // Its own name in another case is a rename, not a conflict.
    const renamed = await api.patch(`${LABELS}/${taken.id}`, as(owner, { body: { name: taken.name.toLowerCase() } }));
    expect(renamed.json.result.name).toBe(taken.name.toLowerCase());
  });

  test("setting labels: an unknown label id → 400 naming the field, an unknown conversation → 404, bad shapes → 400; nothing changed", async () => {
    const kept = await createLabel();
    expect((await api.put(labelsOf(started.conversationId), as(agent, { body: { labels: [kept.id] } }))).status).toBe(200);

    const unknown = await expectRefusedUnchanged(() => api.put(labelsOf(started.conversationId), as(agent, { body: { labels: [kept.id, "lb_nope"] } })), 400, "invalid_request");
    expect(unknown.json.result.fields).toEqual([{ path: "labels.1", problem: expect.any(String) }]);
    await expectRefusedUnchanged(() => api.put(labelsOf("no-such-conversation"), as(agent, { body: { labels: [kept.id] } })), 404, "conversation_not_found");
    for (const body of [{}, { labels: "x" }, { labels: [42] }, { labels: [""] }, { labels: [kept.id, kept.id] }, { labels: ["a\u0000"] }, { labels: [kept.id], extra: 1 }, { labels: Array.from({ length: 21 }, (_, i) => `l${i}`) }]) {
      await expectRefusedUnchanged(() => api.put(labelsOf(started.conversationId), as(agent, { body })), 400, "invalid_request");
    }
    const read = (await api.get(`/api/v1/inbox/conversations/${started.conversationId}`, as(agent))).json.result;
    expect(ids(read.labels)).toEqual([kept.id]);
    await api.put(labelsOf(started.conversationId), as(agent, { body: { labels: [] } }));
  });

  test("unknown label routes are 404; list filters that are not ids are 400", async () => {
    await expectRefusedUnchanged(() => api.patch(`${LABELS}/lb_nope`, as(owner, { body: { name: "X" } })), 404, "not_found");
    await expectRefusedUnchanged(() => api.delete(`${LABELS}/lb_nope`, as(owner)), 404, "not_found");
    for (const query of ["label=", "label=%00", `label=${"l".repeat(101)}`, "label=a&label=b"]) {
      expectError(await api.get(`/api/v1/inbox/conversations?${query}`, as(agent)), 400, "invalid_request");
    }
  });
});

describe("labels: on conversations and in the list", () => {
  test("labels are set whole, shown on the list row and the whole conversation by name, and filter the list with the other filters", async () => {
    const site = await createSite();
    const billing = await createLabel(`Billing ${Date.now().toString(36)}`, "#FF8800");
    expect(billing.color).toBe("#ff8800");
    const alpha = await createLabel(`Alpha ${Date.now().toString(36)}`, "#00aa00");
    const a = await startConversation(site.id, { body: "refund please", client_id: "a1" });
    const b = await startConversation(site.id, { body: "also billing", client_id: "b1" });
    const c = await startConversation(site.id, { body: "unrelated", client_id: "c1" });

    const set = await api.put(labelsOf(a.conversationId), as(agent, { body: { labels: [billing.id, alpha.id] } }));
    expect(set.json.result).toEqual({ conversation_id: a.conversationId, labels: [alpha, billing] });
    await api.put(labelsOf(b.conversationId), as(agent, { body: { labels: [billing.id] } }));

    const list = (query: string) => api.get(`/api/v1/inbox/conversations?site=${site.id}&${query}`, as(agent)).then((response) => response.json.result.items);
    const all = await list("status=all");
    expect(all.find((item: { id: string }) => item.id === a.conversationId).labels).toEqual([alpha, billing]);
    expect(all.find((item: { id: string }) => item.id === c.conversationId).labels).toEqual([]);
    expect(ids(await list(`label=${billing.id}`))).toEqual([b.conversationId, a.conversationId]);
    expect(ids(await list(`label=${alpha.id}`))).toEqual([a.conversationId]);
    expect(await list("label=lb_unknown")).toEqual([]);

    // With the other filters: status, assignment, paging.
    await api.post(`/api/v1/inbox/conversations/${b.conversationId}/close`, as(agent));
    expect(ids(await list(`label=${billing.id}`))).toEqual([a.conversationId]);
    expect(ids(await list(`label=${billing.id}&status=closed`))).toEqual([b.conversationId]);
    expect(ids(await list(`label=${billing.id}&status=all`))).toEqual([b.conversationId, a.conversationId]);
    await api.post(`/api/v1/inbox/conversations/${a.conversationId}/assign`, as(agent, { body: { member_id: agent.id } }));
    expect(ids(await list(`label=${billing.id}&status=all&assigned=me`))).toEqual([a.conversationId]);
    expect(ids(await list(`label=${billing.id}&status=all&assigned=unassigned`))).toEqual([b.conversationId]);
    const first = (await api.get(`/api/v1/inbox/conversations?site=${site.id}&label=${billing.id}&status=all&limit=1`, as(agent))).json.result;
    expect(ids(first.items)).toEqual([b.conversationId]);
    const second = (await api.get(`/api/v1/inbox/conversations?site=${site.id}&label=${billing.id}&status=all&limit=1&cursor=${first.next_cursor}`, as(agent))).json.result;
    expect(ids(second.items)).toEqual([a.conversationId]);
    expect(second.next_cursor).toBeNull();

    const read = (await api.get(`/api/v1/inbox/conversations/${a.conversationId}`, as(owner))).json.result;
    expect(read.labels).toEqual([alpha, billing]);

    // Setting replaces: the labels not named leave.
    const replaced = await api.put(labelsOf(a.conversationId), as(agent, { body: { labels: [billing.id] } }));
    expect(replaced.json.result.labels).toEqual([billing]);
    expect(ids(await list(`label=${alpha.id}`))).toEqual([]);

    // A renamed label is renamed everywhere; a deleted one leaves every conversation.
    const renamed = await api.patch(`${LABELS}/${billing.id}`, as(owner, { body: { name: `Payments ${Date.now().toString(36)}`, color: "#123ABC" } }));
    expect(renamed.json.result.color).toBe("#123abc");
    expect((await list("status=all")).find((item: { id: string }) => item.id === a.conversationId).labels).toEqual([renamed.json.result]);
    expect((await api.delete(`${LABELS}/${billing.id}`, as(owner))).json.result).toEqual({ id: billing.id, deleted: true });
    expect((await list("status=all")).find((item: { id: string }) => item.id === a.conversationId).labels).toEqual([]);
    expect(ids((await api.get(LABELS, as(agent))).json.result)).not.toContain(billing.id);
  });

  test("every member lists the labels by name", async () => {
    const zed = await createLabel(`zed ${Date.now().toString(36)}`);
    const abe = await createLabel(`Abe ${Date.now().toString(36)}`);
    const listed = ids((await api.get(LABELS, as(agent))).json.result);
    expect(listed.indexOf(abe.id)).toBeLessThan(listed.indexOf(zed.id));
  });

  test("changing a conversation's labels tells open inboxes (a conversation event)", async () => {
    const label = await createLabel();
    const events: InboxEvent[] = [];
    const stop = await subscribeInbox((event) => events.push(event));
    try {
      await api.put(labelsOf(started.conversationId), as(agent, { body: { labels: [label.id] } }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(events).toContainEqual({ type: "conversation", conversation_id: started.conversationId });
    } finally {
      stop();
      await api.put(labelsOf(started.conversationId), as(agent, { body: { labels: [] } }));
    }
  });
});

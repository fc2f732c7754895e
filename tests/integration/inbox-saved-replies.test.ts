import { beforeAll, describe, expect, test } from "vitest";
import { api, type CallOptions } from "../support/api";
import { expectError } from "../support/expectations";
import { ORIGIN } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { stateSnapshot, exceptActivity } from "../support/state-snapshot";

// Saved replies (decisions.md, round 3): the team's, managed by owners, and each member's own,
// which no one else sees. Shortcuts are unique per scope.

const PATH = "/api/v1/inbox/saved-replies";
let owner: Staff;
let agent: Staff;
let otherAgent: Staff;

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  otherAgent = await createStaff("agent", "Bea Agent");
});

const reply = (overrides: Record<string, unknown> = {}) => ({
  shortcut: `r-${Math.random().toString(36).slice(2, 8)}`,
  title: "Greeting",
  body: "Hi {{visitor.name|there}}, this is {{agent.name}} from {{site.name}}.",
  scope: "personal",
  ...overrides,
});

async function create(staff: Staff, body: Record<string, unknown>) {
  const response = await api.post(PATH, as(staff, { body }));
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.result as { id: string; shortcut: string; scope: string };
}

/** Everything but a member's activity and a session's sliding expiry, which any signed-in call moves. */
const state = async () => exceptActivity(await stateSnapshot());

async function expectRefusedUnchanged(send: () => Promise<Awaited<ReturnType<typeof api.get>>>, status: number, code: string) {
  const before = await state();
  expectError(await send(), status, code);
  expect(await state()).toEqual(before);
}

describe("saved replies: who may do what", () => {
  test("every route without a session → 401 unauthorized, nothing changed", async () => {
    const existing = await create(owner, reply({ scope: "team" }));
    const calls: [string, () => Promise<Awaited<ReturnType<typeof api.get>>>][] = [
      ["GET", () => api.get(PATH, as(null))],
      ["POST", () => api.post(PATH, as(null, { body: reply() }))],
      ["PATCH", () => api.patch(`${PATH}/${existing.id}`, as(null, { body: { title: "X" } }))],
      ["DELETE", () => api.delete(`${PATH}/${existing.id}`, as(null))],
    ];
    for (const [, send] of calls) await expectRefusedUnchanged(send, 401, "unauthorized");
  });

  test("state changes without the inbox's Origin (a cross-site form, a customer page) → 403 origin_not_allowed, nothing changed", async () => {
    const existing = await create(agent, reply());
    for (const origin of [null, "https://evil.example", ORIGIN]) {
      const options = (body?: unknown): CallOptions => as(agent, { origin, body });
      await expectRefusedUnchanged(() => api.post(PATH, options(reply())), 403, "origin_not_allowed");
      await expectRefusedUnchanged(() => api.patch(`${PATH}/${existing.id}`, options({ title: "Changed" })), 403, "origin_not_allowed");
      await expectRefusedUnchanged(() => api.delete(`${PATH}/${existing.id}`, options()), 403, "origin_not_allowed");
    }
  });

  test("an agent may not create, change or delete a team reply → 403 forbidden, nothing changed", async () => {
    const team = await create(owner, reply({ scope: "team" }));
    const mine = await create(agent, reply());
    await expectRefusedUnchanged(() => api.post(PATH, as(agent, { body: reply({ scope: "team" }) })), 403, "forbidden");
    await expectRefusedUnchanged(() => api.patch(`${PATH}/${team.id}`, as(agent, { body: { title: "Mine now" } })), 403, "forbidden");
    await expectRefusedUnchanged(() => api.patch(`${PATH}/${team.id}`, as(agent, { body: { scope: "personal" } })), 403, "forbidden");
    await expectRefusedUnchanged(() => api.patch(`${PATH}/${mine.id}`, as(agent, { body: { scope: "team" } })), 403, "forbidden");
    await expectRefusedUnchanged(() => api.delete(`${PATH}/${team.id}`, as(agent)), 403, "forbidden");
  });

  test("a member never sees another's personal replies: listing leaves them out, changing or deleting them is 404", async () => {
    const hers = await create(otherAgent, reply({ title: "Bea's own" }));
    const team = await create(owner, reply({ scope: "team", title: "For everyone" }));
    const listed = (await api.get(PATH, as(agent))).json.result as { id: string }[];
    expect(listed.map((entry) => entry.id)).toContain(team.id);
    expect(listed.map((entry) => entry.id)).not.toContain(hers.id);
    const ownerList = (await api.get(PATH, as(owner))).json.result as { id: string }[];
    expect(ownerList.map((entry) => entry.id)).not.toContain(hers.id); // owners too: personal means personal
    await expectRefusedUnchanged(() => api.patch(`${PATH}/${hers.id}`, as(agent, { body: { title: "Taken" } })), 404, "not_found");
    await expectRefusedUnchanged(() => api.delete(`${PATH}/${hers.id}`, as(owner)), 404, "not_found");
    await expectRefusedUnchanged(() => api.patch(`${PATH}/sr_unknown`, as(owner, { body: { title: "X" } })), 404, "not_found");
    await expectRefusedUnchanged(() => api.delete(`${PATH}/sr_unknown`, as(agent)), 404, "not_found");
  });
});

describe("saved replies: input", () => {
  test("bad input → 400 invalid_request naming the field, nothing changed", async () => {
    const existing = await create(agent, reply());
    const bad: [Record<string, unknown>, string][] = [
      [reply({ shortcut: "" }), "shortcut"],
      [reply({ shortcut: "Hello" }), "shortcut"],
      [reply({ shortcut: "with space" }), "shortcut"],
      [reply({ shortcut: "a".repeat(33) }), "shortcut"],
      [reply({ shortcut: "/greet" }), "shortcut"],
      [reply({ title: "" }), "title"],
      [reply({ title: "   " }), "title"],
      [reply({ title: "t".repeat(81) }), "title"],
      [reply({ title: "Two\nlines" }), "title"],
      [reply({ body: "" }), "body"],
      [reply({ body: "b".repeat(4001) }), "body"],
      [reply({ body: "nul\u0000" }), "body"],
      [reply({ scope: "global" }), "scope"],
      [reply({ owner_id: agent.id }), "owner_id"],
    ];
    for (const [body, field] of bad) {
      const before = await state();
      const response = await api.post(PATH, as(agent, { body }));
      expectError(response, 400, "invalid_request");
      expect(response.json.result.fields.map((entry: { path: string }) => entry.path), JSON.stringify(body)).toContain(field);
      expect(await state()).toEqual(before);
    }
    const { scope: _scope, ...withoutScope } = reply();
    await expectRefusedUnchanged(() => api.post(PATH, as(agent, { body: withoutScope })), 400, "invalid_request");
    await expectRefusedUnchanged(() => api.patch(`${PATH}/${existing.id}`, as(agent, { body: {} })), 400, "invalid_request");
    await expectRefusedUnchanged(() => api.patch(`${PATH}/${existing.id}`, as(agent, { body: { shortcut: "UPPER" } })), 400, "invalid_request");
    await expectRefusedUnchanged(() => api.patch(`${PATH}/${"x".repeat(101)}`, as(agent, { body: { title: "X" } })), 400, "invalid_request");
  });

  test("a shortcut is unique per scope: the same one twice in a scope → 409 already_exists; across scopes and members it is free", async () => {
    const shortcut = `dup-${Date.now().toString(36)}`;
    await create(agent, reply({ shortcut }));
    await expectRefusedUnchanged(() => api.post(PATH, as(agent, { body: reply({ shortcut, title: "Again" }) })), 409, "already_exists");
    await create(otherAgent, reply({ shortcut })); // another member's own scope
    await create(owner, reply({ shortcut, scope: "team" })); // the team's scope
    await expectRefusedUnchanged(() => api.post(PATH, as(owner, { body: reply({ shortcut, scope: "team" }) })), 409, "already_exists");
    // Renaming onto a taken shortcut, or moving into a scope where it is taken, is the same conflict.
    const other = await create(agent, reply());
    await expectRefusedUnchanged(() => api.patch(`${PATH}/${other.id}`, as(agent, { body: { shortcut } })), 409, "already_exists");
    const ownersOwn = await create(owner, reply({ shortcut }));
    await expectRefusedUnchanged(() => api.patch(`${PATH}/${ownersOwn.id}`, as(owner, { body: { scope: "team" } })), 409, "already_exists");
  });
});

describe("saved replies: happy paths", () => {
  test("an agent creates, lists, changes and deletes a personal reply; the body keeps its placeholders as typed", async () => {
    const body = "  Hi {{visitor.name|there}}, I'm {{agent.name}} at {{site.name}}.\nAnything else?  ";
    const created = await api.post(PATH, as(agent, { body: reply({ shortcut: "greet", body, title: " Greeting " }) }));
    expect(created.status).toBe(201);
    expect(created.json.result).toEqual({
      id: expect.stringMatching(/^sr_/),
      scope: "personal",
      shortcut: "greet",
      title: "Greeting",
      body: body.trim(),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.json.result.id;
    const patched = await api.patch(`${PATH}/${id}`, as(agent, { body: { title: "Hello", shortcut: "hello" } }));
    expect(patched.status).toBe(200);
    expect(patched.json.result).toMatchObject({ id, title: "Hello", shortcut: "hello", body: body.trim(), scope: "personal" });
    const listed = (await api.get(PATH, as(agent))).json.result as { id: string; shortcut: string }[];
    expect(listed.find((entry) => entry.id === id)).toMatchObject({ shortcut: "hello" });
    const shortcuts = listed.map((entry) => entry.shortcut);
    expect(shortcuts).toEqual([...shortcuts].sort());

    const deleted = await api.delete(`${PATH}/${id}`, as(agent));
    expect(deleted.status).toBe(200);
    expect(deleted.json.result).toEqual({ id, deleted: true });
    expect(((await api.get(PATH, as(agent))).json.result as { id: string }[]).some((entry) => entry.id === id)).toBe(false);
    expectError(await api.delete(`${PATH}/${id}`, as(agent)), 404, "not_found");
  });

  test("an owner manages team replies, which every member lists; moving one to personal makes it the owner's own", async () => {
    const team = await create(owner, reply({ scope: "team", title: "Refunds" }));
    for (const member of [agent, otherAgent, owner]) {
      const listed = (await api.get(PATH, as(member))).json.result as { id: string; scope: string }[];
      expect(listed.find((entry) => entry.id === team.id)).toMatchObject({ scope: "team" });
    }
    const changed = await api.patch(`${PATH}/${team.id}`, as(owner, { body: { body: "Refunds take 5 days." } }));
    expect(changed.json.result).toMatchObject({ scope: "team", body: "Refunds take 5 days." });
    const moved = await api.patch(`${PATH}/${team.id}`, as(owner, { body: { scope: "personal" } }));
    expect(moved.json.result.scope).toBe("personal");
    expect(((await api.get(PATH, as(agent))).json.result as { id: string }[]).some((entry) => entry.id === team.id)).toBe(false);
    const back = await api.patch(`${PATH}/${team.id}`, as(owner, { body: { scope: "team" } }));
    expect(back.json.result.scope).toBe("team");
    expect((await api.delete(`${PATH}/${team.id}`, as(owner))).status).toBe(200);
  });

  test("an owner's personal replies are theirs alone too", async () => {
    const own = await create(owner, reply({ title: "Owner's own" }));
    expect(((await api.get(PATH, as(agent))).json.result as { id: string }[]).some((entry) => entry.id === own.id)).toBe(false);
    expect(((await api.get(PATH, as(owner))).json.result as { id: string }[]).some((entry) => entry.id === own.id)).toBe(true);
  });
});

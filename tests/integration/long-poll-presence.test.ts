import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, test } from "vitest";
import { separatePostgresExecutor } from "../../lib/db/client";
import { UPSERT_PRESENCE } from "../../lib/conversations/presence";
import { ensureListening } from "../../lib/realtime/message-signals";
import { api, call } from "../support/api";
import { expectError } from "../support/expectations";
import { createMember, openConversation, staffReply, visitor, type Started } from "../support/fixtures";
import { requireService } from "../support/requires";
import { as, createStaff } from "../support/inbox";

const onPostgres = await requireService("postgres");

// Staff typing rides the held long-poll (?presence=<newest expires_at seen, epoch ms>): an open
// widget needs one held request for messages and typing, not a presence poll every 3 s besides.

const poll = (started: Started, query: string) => call("GET", `/api/v1/chat/visitor/messages${query}`, visitor(started));
const staffTyping = (conversationId: string, actorId: string, typing: boolean) =>
  api.post(`/api/v1/admin/conversations/${conversationId}/presence`, { admin: true, body: { actor_id: actorId, typing } });
const visitorTyping = (started: Started) => api.get("/api/v1/chat/visitor/presence?typing=true", visitor(started));
const later = (ms: number, work: () => Promise<unknown>) => new Promise((resolve) => setTimeout(resolve, ms)).then(work);
const epochMs = (entry: { expires_at: string }) => Date.parse(entry.expires_at);

describe("a long-poll with ?presence=", () => {
  test("without it, the answer is the spec's page, with no presence field", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await staffTyping(started.conversationId, staff.id, true);
    for (const query of ["?cursor=0", "?cursor=1&wait=1"]) {
      const { json } = await poll(started, query);
      expect(Object.keys(json.result)).toEqual(["items", "next_cursor", "has_more"]);
    }
  });

  test("a held poll answers when staff start typing, with their entry", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember({ name: "Ada" });
    // Held for 20 s unless woken: the test's own timeout (30 s) is far below 20 s + the others.
    const [{ json }] = await Promise.all([
      poll(started, "?cursor=1&wait=20&presence=0"),
      later(300, () => staffTyping(started.conversationId, staff.id, true)),
    ]);
    expect(json.result.items).toEqual([]);
    expect(json.result.next_cursor).toBe(1);
    expect(json.result.presence).toMatchObject([{ actor_id: staff.id, author_type: "staff", typing: true, author_name: "Ada" }]);
  });

  test("answers at once with a live entry newer than the client's, and holds with one it has seen", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await staffTyping(started.conversationId, staff.id, true);
    const first = (await poll(started, "?cursor=1&wait=20&presence=0")).json.result;
    expect(first.presence).toHaveLength(1);
    // Nothing the client has not seen: held until the time is up (no busy loop), then the same entry.
    const seen = epochMs(first.presence[0]);
    const startedAt = Date.now();
    const second = (await poll(started, `?cursor=1&wait=1&presence=${seen}`)).json.result;
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(950);
    expect(second).toEqual({ items: [], next_cursor: 1, has_more: false, presence: first.presence });
  });

  test("staff stopping typing answers a held poll (a newer entry, typing false)", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await staffTyping(started.conversationId, staff.id, true);
    const seen = epochMs((await poll(started, "?cursor=1&presence=0")).json.result.presence[0]);
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later expires_at
    const [{ json }] = await Promise.all([
      poll(started, `?cursor=1&wait=20&presence=${seen}`),
      later(300, () => staffTyping(started.conversationId, staff.id, false)),
    ]);
    expect(json.result.presence).toMatchObject([{ actor_id: staff.id, typing: false }]);
    expect(epochMs(json.result.presence[0])).toBeGreaterThan(seen);
  });

  test("a message still answers it, with presence beside the items", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    const [{ json }] = await Promise.all([
      poll(started, "?cursor=1&wait=20&presence=0"),
      later(300, () => staffReply(started.conversationId, staff.id, "hello")),
    ]);
    expect(json.result.items.map((m: { body: string }) => m.body)).toEqual(["hello"]);
    expect(json.result.presence).toEqual([]);
  });

  test("a reply from the inbox's composer answers a held poll once: the message and the typing it ended together", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const agent = await createStaff("agent");
    const inbox = (path: string, body: object) => api.post(`/api/v1/inbox/conversations/${started.conversationId}/${path}`, as(agent, { body }));
    expect((await inbox("typing", { typing: true })).status).toBe(200);
    const seen = epochMs((await poll(started, "?cursor=1&presence=0")).json.result.presence[0]);
    const [{ json }] = await Promise.all([poll(started, `?cursor=1&wait=20&presence=${seen}`), later(300, () => inbox("messages", { body: "hello" }))]);
    expect(json.result.items.map((m: { body: string }) => m.body)).toEqual(["hello"]);
    // The same answer says the typing is over (not the entry the client had already seen) ...
    expect(json.result.presence.filter((entry: { typing: boolean }) => entry.typing)).toEqual([]);
    const newest = Math.max(seen, ...json.result.presence.map(epochMs));
    // ... so the re-issued poll has nothing new and is held until its time is up.
    const startedAt = Date.now();
    const next = (await poll(started, `?cursor=2&wait=1&presence=${newest}`)).json.result;
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(950);
    expect(next.items).toEqual([]);
  });

  test("the visitor's own typing neither shows nor ends its held poll", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const startedAt = Date.now();
    const [{ json }] = await Promise.all([poll(started, "?cursor=1&wait=1&presence=0"), later(200, () => visitorTyping(started))]);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(950);
    expect(json.result).toEqual({ items: [], next_cursor: 1, has_more: false, presence: [] });
  });

  test("staff typing in another conversation does not answer it", async () => {
    const mine = await openConversation({ body: "hi", client_id: "a" });
    const theirs = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    const [{ json }] = await Promise.all([
      poll(mine, "?cursor=1&wait=1&presence=0"),
      later(200, () => staffTyping(theirs.conversationId, staff.id, true)),
    ]);
    expect(json.result.presence).toEqual([]);
  });

  test("without wait, the page and the live entries at once", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    expect((await poll(started, "?cursor=1&presence=0")).json.result).toEqual({ items: [], next_cursor: 1, has_more: false, presence: [] });
    await staffTyping(started.conversationId, staff.id, true);
    const { json } = await poll(started, `?cursor=0&presence=${Date.now() + 60_000}`);
    expect(json.result.items).toHaveLength(1);
    expect(json.result.presence).toMatchObject([{ actor_id: staff.id, typing: true }]);
  });

  test.each(["-1", "1.5", "abc", "", "1e3", "99999999999999999", "9000000000000000"])("presence=%s → 400 invalid_request", async (value) => {
    const started = await openConversation();
    expectError(await poll(started, `?wait=1&presence=${value}`), 400, "invalid_request");
  });

  describe.runIf(onPostgres)("on PostgreSQL", () => {
    const pools: { end(): Promise<void> }[] = [];
    afterAll(() => Promise.all(pools.map((pool) => pool.end())));

    test("staff typing written by another instance wakes a poll held here", async () => {
      const started = await openConversation({ body: "hi", client_id: "a" });
      const staff = await createMember();
      await ensureListening();
      // Another instance: its own pool, the same statement; only its NOTIFY can reach this process.
      const other = separatePostgresExecutor(process.env.DATABASE_URL!);
      pools.push(other);
      const write = () => other.executeSql(UPSERT_PRESENCE.text, [started.conversationId, staff.id, "staff", true, new Date(Date.now() + 10_000)]);
      const [{ json }] = await Promise.all([poll(started, "?cursor=1&wait=20&presence=0"), later(300, write)]);
      expect(json.result.presence).toMatchObject([{ actor_id: staff.id, typing: true }]);
    });

    test("a message wake-up still carries a bare conversation id, unchanged", async () => {
      const started = await openConversation({ body: "hi", client_id: "a" });
      const other = separatePostgresExecutor(process.env.DATABASE_URL!);
      pools.push(other);
      const client = await import("pg");
      const listener = new client.default.Client({ connectionString: process.env.DATABASE_URL! });
      await listener.connect();
      const payloads: string[] = [];
      listener.on("notification", (message) => payloads.push(message.payload ?? ""));
      await listener.query("LISTEN parley_messages");
      const staff = await createMember();
      await other.executeSql(UPSERT_PRESENCE.text, [started.conversationId, staff.id, "staff", true, new Date(Date.now() + 10_000)]);
      await other.executeSql(UPSERT_PRESENCE.text, [started.conversationId, randomUUID(), "visitor", true, new Date(Date.now() + 10_000)]);
      await staffReply(started.conversationId, staff.id, "hello");
      await new Promise((resolve) => setTimeout(resolve, 300));
      await listener.end();
      expect(payloads).toEqual([`p:${started.conversationId}`, started.conversationId]);
    });
  });
});

import { describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { BASE_URL, call } from "../support/api";
import { createMember, openConversation, staffReply, visitor, type Started } from "../support/fixtures";
import { expectError } from "../support/expectations";
import { requireService } from "../support/requires";

const onPostgres = await requireService("postgres");

const poll = (started: Started, query: string, headers?: Record<string, string>) =>
  call("GET", `/api/v1/chat/visitor/messages${query}`, { ...visitor(started), headers });

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const startedAt = Date.now();
  const value = await work;
  return { value, ms: Date.now() - startedAt };
}

const later = (ms: number, work: () => Promise<unknown>) => new Promise((resolve) => setTimeout(() => resolve(work()), ms));

describe("long-poll (?wait=S)", () => {
  test("answers at once when a newer public message exists", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const { value, ms } = await timed(poll(started, "?cursor=0&wait=10"));
    expect(value.json.result.items).toHaveLength(1);
    expect(ms).toBeLessThan(5_000); // not held for the 10 s asked (slack for a busy machine)
  });

  test("holds the request until a staff reply arrives, then answers with it", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    const [{ value, ms }] = await Promise.all([
      timed(poll(started, "?cursor=1&wait=10")),
      later(400, () => staffReply(started.conversationId, staff.id, "here I am")),
    ]);
    expect(value.status).toBe(200);
    expect(value.json.result.items.map((m: { body: string }) => m.body)).toEqual(["here I am"]);
    expect(value.json.result.next_cursor).toBe(2);
    expect(ms).toBeGreaterThanOrEqual(350);
    expect(ms).toBeLessThan(3_000);
  });

  test("answers an empty page when the time is up", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const { value, ms } = await timed(poll(started, "?cursor=1&wait=1"));
    expect(value.json.result).toEqual({ items: [], next_cursor: 1, has_more: false });
    expect(ms).toBeGreaterThanOrEqual(950);
  });

  test("a staff note does not answer a held request", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    const [{ value }] = await Promise.all([
      timed(poll(started, "?cursor=1&wait=1")),
      later(200, () => staffReply(started.conversationId, staff.id, "internal", "note")),
    ]);
    expect(value.json.result.items).toEqual([]);
  });

  test("a message in another conversation does not answer it", async () => {
    const mine = await openConversation({ body: "hi", client_id: "a" });
    const theirs = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    const [{ value }] = await Promise.all([
      timed(poll(mine, "?cursor=1&wait=1")),
      later(200, () => staffReply(theirs.conversationId, staff.id, "not yours")),
    ]);
    expect(value.json.result.items).toEqual([]);
  });

  test("a held request ends as soon as the client goes away", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const controller = new AbortController();
    const request = new Request(`${BASE_URL}/api/v1/chat/visitor/messages?cursor=1&wait=20`, {
      headers: { Origin: started.origin, Authorization: `Bearer ${started.token}` },
      signal: controller.signal,
    });
    const { GET } = await import("../../app/api/v1/chat/visitor/messages/route");
    setTimeout(() => controller.abort(), 200);
    const { ms } = await timed(GET(request, { params: Promise.resolve({}) }));
    expect(ms).toBeLessThan(2_000);
  });

  test.each(["?wait=26", "?wait=-1", "?wait=abc", "?wait=1.5"])("%s → 400 invalid_request", async (query) => {
    const started = await openConversation();
    expectError(await poll(started, query), 400, "invalid_request");
  });

  test.runIf(onPostgres)("on PostgreSQL, losing the LISTEN connection loses no wake-up", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await poll(started, "?cursor=1&wait=0"); // nothing held yet
    const held = timed(poll(started, "?cursor=1&wait=10"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await (await db()).$executeRawUnsafe(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%' AND datname = current_database()`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await staffReply(started.conversationId, staff.id, "after the cut");
    const { value, ms } = await held;
    expect(value.json.result.items.map((m: { body: string }) => m.body)).toEqual(["after the cut"]);
    expect(ms).toBeLessThan(5_000);
  });
});

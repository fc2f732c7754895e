import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../support/api";
import { createMember, openConversation, staffReply, visitor, type Started } from "../support/fixtures";
import { expectError } from "../support/expectations";
import { rowCounts } from "../support/row-counts";

const send = (started: Started, body: unknown) => api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body });
const list = (started: Started, query = "") => api.get(`/api/v1/chat/visitor/messages${query}`, visitor(started));

describe("sending a message", () => {
  test("a new message answers 201 with the stored message and duplicate: false", async () => {
    const started = await openConversation({ name: "Ada" });
    const response = await send(started, { body: "Hello", client_id: "m-1" });
    expect(response.status).toBe(201);
    expect(response.json.result.duplicate).toBe(false);
    expect(response.json.result.message).toMatchObject({
      sequence: 1,
      conversation_id: started.conversationId,
      client_id: "m-1",
      author_type: "visitor",
      kind: "message",
      body: "Hello",
      author_name: "Ada",
      author_avatar: null,
    });
    expect(new Date(response.json.result.message.created_at).toISOString()).toBe(response.json.result.message.created_at);
  });

  test("replaying a client_id with the same body answers 200 duplicate and stores nothing", async () => {
    const started = await openConversation();
    const first = await send(started, { body: "Once", client_id: "same" });
    const before = await rowCounts();
    const replay = await send(started, { body: "Once", client_id: "same" });
    expect(replay.status).toBe(200);
    expect(replay.json.result).toEqual({ message: first.json.result.message, duplicate: true });
    expect(await rowCounts()).toEqual(before);
  });

  test("reusing a client_id with another body is 409 client_id_conflict", async () => {
    const started = await openConversation();
    await send(started, { body: "One", client_id: "dup" });
    const before = await rowCounts();
    expectError(await send(started, { body: "Two", client_id: "dup" }), 409, "client_id_conflict");
    expect(await rowCounts()).toEqual(before);
  });

  test("the start's first message counts for client_id replays", async () => {
    const started = await openConversation({ body: "First", client_id: "start-1" });
    const replay = await send(started, { body: "First", client_id: "start-1" });
    expect(replay.status).toBe(200);
    expect(replay.json.result.message.sequence).toBe(1);
  });

  test("a note is 400 note_rejected; any other kind is 400 invalid_request", async () => {
    const started = await openConversation();
    const before = await rowCounts();
    expectError(await send(started, { body: "psst", client_id: "n", kind: "note" }), 400, "note_rejected");
    expectError(await send(started, { body: "x", client_id: "k", kind: "system" }), 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
  });

  test.each([
    ["missing body", { client_id: "a" }],
    ["missing client_id", { body: "a" }],
    ["blank body", { body: " \n ", client_id: "a" }],
    ["body over 4000", { body: "x".repeat(4001), client_id: "a" }],
    ["client_id over 100", { body: "x", client_id: "c".repeat(101) }],
    ["unknown field", { body: "x", client_id: "a", conversation_id: "someone-else" }],
    ["object body", { body: { text: "x" }, client_id: "a" }],
  ])("%s → 400 invalid_request, nothing stored", async (_name, body) => {
    const started = await openConversation();
    const before = await rowCounts();
    expectError(await send(started, body), 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
  });

  test("a closed conversation refuses sends with 409 but still lists, ending with the system notice", async () => {
    const started = await openConversation({ body: "before close", client_id: "b" });
    expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true })).status).toBe(200);
    expectError(await send(started, { body: "after close", client_id: "c" }), 409, "conversation_closed");
    const items = (await list(started)).json.result.items;
    expect(items.map((item: { body: string; author_type: string }) => [item.author_type, item.body])).toEqual([
      ["visitor", "before close"],
      ["system", "This conversation was closed."],
    ]);
  });

  test("50 concurrent sends get sequences 1..50 exactly", async () => {
    const started = await openConversation();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => send(started, { body: `message ${i}`, client_id: `c-${i}` })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    const sequences = responses.map((r) => r.json.result.message.sequence).sort((a: number, b: number) => a - b);
    expect(sequences).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  test("concurrent replays of one client_id store it once", async () => {
    const started = await openConversation();
    const responses = await Promise.all(Array.from({ length: 10 }, () => send(started, { body: "retry me", client_id: "r" })));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 200 && r.json.result.duplicate)).toHaveLength(9);
    expect((await list(started)).json.result.items).toHaveLength(1);
  });
});

describe("listing messages", () => {
  let started: Started;
  let staffId: string;

  beforeAll(async () => {
    started = await openConversation({ name: "Vera", body: "m1", client_id: "m1" });
    staffId = (await createMember({ name: "Sam Support" })).id;
    await staffReply(started.conversationId, staffId, "internal: refund?", "note");
    await staffReply(started.conversationId, staffId, "m2 from staff");
    for (const n of [3, 4, 5]) await send(started, { body: `m${n}`, client_id: `m${n}` });
  });

  test("returns public messages ascending, notes never", async () => {
    const { status, json } = await list(started);
    expect(status).toBe(200);
    expect(json.result.items.map((m: { body: string }) => m.body)).toEqual(["m1", "m2 from staff", "m3", "m4", "m5"]);
    // The note took no public number: the visitor's sequence has no gap (issue 9, item 10).
    expect(json.result.items.map((m: { sequence: number }) => m.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(JSON.stringify(json)).not.toContain("refund");
    expect(json.result).toMatchObject({ next_cursor: 5, has_more: false });
  });

  test("a staff message carries the member's name and picture path", async () => {
    const staff = (await list(started)).json.result.items[1];
    expect(staff).toMatchObject({
      author_type: "staff",
      author_id: staffId,
      author_name: "Sam Support",
      author_avatar: `/api/v1/chat/visitor/avatars/${staffId}`,
    });
  });

  test("pages with cursor and limit", async () => {
    const first = (await list(started, "?limit=2")).json.result;
    expect(first.items.map((m: { body: string }) => m.body)).toEqual(["m1", "m2 from staff"]);
    expect(first).toMatchObject({ next_cursor: 2, has_more: true });
    const second = (await list(started, `?cursor=${first.next_cursor}&limit=2`)).json.result;
    expect(second.items.map((m: { body: string }) => m.body)).toEqual(["m3", "m4"]);
    expect(second).toMatchObject({ next_cursor: 4, has_more: true });
    const last = (await list(started, `?cursor=${second.next_cursor}&limit=2`)).json.result;
    expect(last).toMatchObject({ next_cursor: 5, has_more: false });
  });

  test("past the end, next_cursor stays the given cursor", async () => {
    expect((await list(started, "?cursor=99")).json.result).toEqual({ items: [], next_cursor: 99, has_more: false });
  });

  test.each(["?cursor=-1", "?cursor=abc", "?cursor=1.5", "?cursor=99999999999", "?limit=0", "?limit=101", "?limit=", "?cursor=1&cursor=2", "?page=2"])(
    "query %s → 400 invalid_request",
    async (query) => {
      expectError(await list(started, query), 400, "invalid_request");
    },
  );

  test("another conversation's token sees only its own messages", async () => {
    const other = await openConversation({ body: "mine", client_id: "x" });
    const items = (await list(other)).json.result.items;
    expect(items.map((m: { body: string }) => m.body)).toEqual(["mine"]);
  });
});

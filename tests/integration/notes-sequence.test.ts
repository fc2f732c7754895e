import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { api } from "../support/api";
import { createMember, openConversation, staffReply, visitor, type Started } from "../support/fixtures";

// Issue 9, item 10: after visitor message, reply, note, reply the visitor's list returned
// sequences [1, 2, 4]: the gap told the visitor a note was written, how many and when. Notes now
// take no public sequence; the staff view keeps each note after the public message it follows.

type Step = "visitor" | "reply" | "note";

interface StaffMessage {
  sequence: number;
  note_number: number;
  kind: string;
  body: string;
}

async function visitorSequences(started: Started): Promise<{ sequences: number[]; bodies: string[] }> {
  const all: { sequence: number; body: string }[] = [];
  let cursor = 0;
  for (;;) {
    const page = await api.get(`/api/v1/chat/visitor/messages?cursor=${cursor}&limit=100`, visitor(started));
    expect(page.status).toBe(200);
    all.push(...page.json.result.items);
    cursor = page.json.result.next_cursor;
    if (!page.json.result.has_more) break;
  }
  return { sequences: all.map((m) => m.sequence), bodies: all.map((m) => m.body) };
}

async function staffTimeline(conversationId: string): Promise<StaffMessage[]> {
  const read = await api.get(`/api/v1/admin/conversations/${conversationId}`, { admin: true });
  expect(read.status).toBe(200);
  return read.json.result.messages;
}

async function play(started: Started, memberId: string, steps: Step[], offset = 0): Promise<string[]> {
  const bodies: string[] = [];
  for (const [i, step] of steps.entries()) {
    const body = `${step} ${offset + i}`;
    bodies.push(body);
    if (step === "visitor") {
      const sent = await api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { body, client_id: `c-${offset + i}` } });
      expect(sent.status).toBe(201);
    } else {
      await staffReply(started.conversationId, memberId, body, step === "reply" ? "message" : "note");
    }
  }
  return bodies;
}

describe("staff notes and the visitor's sequence", () => {
  test("visitor message, reply, note, reply: the visitor sees 1, 2, 3", async () => {
    const started = await openConversation({ body: "where is my order?", client_id: "c-0" });
    const staff = await createMember();
    await staffReply(started.conversationId, staff.id, "looking");
    const note = await staffReply(started.conversationId, staff.id, "customer is a VIP", "note");
    const reply = await staffReply(started.conversationId, staff.id, "it ships today");

    expect(note).toMatchObject({ kind: "note", sequence: 2, note_number: 1 });
    expect(reply).toMatchObject({ kind: "message", sequence: 3, note_number: 0 });
    expect((await visitorSequences(started)).sequences).toEqual([1, 2, 3]);
    expect((await staffTimeline(started.conversationId)).map((m) => [m.body, m.sequence, m.note_number])).toEqual([
      ["where is my order?", 1, 0],
      ["looking", 2, 0],
      ["customer is a VIP", 2, 1],
      ["it ships today", 3, 0],
    ]);
  });

  test("the visitor's message and list answers carry no note_number, and a note's send says nothing to the visitor", async () => {
    const started = await openConversation({ body: "hi", client_id: "c-0" });
    const staff = await createMember();
    await staffReply(started.conversationId, staff.id, "internal", "note");
    const sent = await api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { body: "still there?", client_id: "c-1" } });
    expect(sent.json.result.message.sequence).toBe(2);
    expect(sent.json.result.message).not.toHaveProperty("note_number");
    const list = await api.get("/api/v1/chat/visitor/messages?cursor=0", visitor(started));
    expect(list.json.result.items.map((m: object) => Object.hasOwn(m, "note_number"))).toEqual([false, false]);
    expect(list.json.result.next_cursor).toBe(2);
  });

  test("notes before any public message follow sequence 0, and several notes in a row keep their order", async () => {
    const started = await openConversation();
    const staff = await createMember();
    await play(started, staff.id, ["note", "note", "visitor", "note", "note", "reply"]);
    expect((await visitorSequences(started)).sequences).toEqual([1, 2]);
    expect((await staffTimeline(started.conversationId)).map((m) => [m.kind, m.sequence, m.note_number])).toEqual([
      ["note", 0, 1],
      ["note", 0, 2],
      ["message", 1, 0],
      ["note", 1, 3],
      ["note", 1, 4],
      ["message", 2, 0],
    ]);
  });

  test("a cursor taken before notes were written still lists exactly the newer public messages", async () => {
    const started = await openConversation({ body: "hi", client_id: "c-0" });
    const staff = await createMember();
    await play(started, staff.id, ["reply", "note", "note"], 1);
    const cursor = (await api.get("/api/v1/chat/visitor/messages?cursor=0", visitor(started))).json.result.next_cursor;
    expect(cursor).toBe(2);
    await play(started, staff.id, ["note", "reply", "note", "visitor"], 10);
    const page = await api.get(`/api/v1/chat/visitor/messages?cursor=${cursor}`, visitor(started));
    expect(page.json.result.items.map((m: { sequence: number; body: string }) => [m.sequence, m.body])).toEqual([
      [3, "reply 11"],
      [4, "visitor 13"],
    ]);
  });

  test("concurrent notes and messages: public sequences 1..n and note numbers 1..k, no repeats", async () => {
    const started = await openConversation();
    const staff = await createMember();
    const steps: Step[] = Array.from({ length: 24 }, (_, i) => (["visitor", "reply", "note"] as const)[i % 3]!);
    await Promise.all(steps.map((step, i) => play(started, staff.id, [step], i * 100)));
    const timeline = await staffTimeline(started.conversationId);
    const publicSequences = timeline.filter((m) => m.kind === "message").map((m) => m.sequence);
    const noteNumbers = timeline.filter((m) => m.kind === "note").map((m) => m.note_number);
    expect(publicSequences).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect([...noteNumbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 8 }, (_, i) => i + 1));
    expect((await visitorSequences(started)).sequences).toEqual(publicSequences);
  });

  test("property: for any order of messages, replies and notes, the visitor's sequences are 1..n and the staff timeline is the order written", async () => {
    const staff = await createMember();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom<Step>("visitor", "reply", "note"), { minLength: 1, maxLength: 12 }), async (steps) => {
        const started = await openConversation();
        const bodies = await play(started, staff.id, steps);
        const seen = await visitorSequences(started);
        const publicBodies = bodies.filter((_, i) => steps[i] !== "note");
        expect(seen.sequences).toEqual(publicBodies.map((_, i) => i + 1));
        expect(seen.bodies).toEqual(publicBodies);
        expect((await staffTimeline(started.conversationId)).map((m) => m.body)).toEqual(bodies);
      }),
      { numRuns: 25 },
    );
  });
});

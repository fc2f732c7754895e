import { describe, expect, test, vi } from "vitest";
import type { PreparedStatement } from "../../lib/db";
import { stopListening } from "../../lib/realtime/message-signals";
import { call } from "../support/api";
import { createMember, openConversation, staffReply, visitor } from "../support/fixtures";

// Issue 9, item 5: on a fresh instance the first long-poll's read ran before the LISTEN connection
// existed, so a reply committed between that read and the LISTEN was never signalled and the poll
// waited its full `wait`. The barrier below commits the reply exactly in that window: right after
// the poll's first read of the public messages, before that read's rows reach the poll.

let afterFirstRead: (() => Promise<void>) | null = null;

vi.mock("../../lib/db", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../lib/db")>();
  return {
    ...real,
    queryPrepared: async <Row>(statement: PreparedStatement, values: unknown[]): Promise<Row[]> => {
      const rows = await real.queryPrepared<Row>(statement, values);
      if (statement.name === "public_messages_after" && afterFirstRead) {
        const action = afterFirstRead;
        afterFirstRead = null;
        await action();
      }
      return rows;
    },
  };
});

/** A process that has never listened: no LISTEN connection, nothing remembered about one. */
async function freshInstance(): Promise<void> {
  await stopListening();
  const state = (globalThis as { parleyMessageListener?: Record<string, unknown> }).parleyMessageListener;
  if (state && "everConnected" in state) state.everConnected = false;
}

describe("the first long-poll of a fresh instance", () => {
  test("a reply committed right after the poll's first read answers it at once", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await freshInstance();
    afterFirstRead = async () => {
      await staffReply(started.conversationId, staff.id, "just in time");
    };
    const startedAt = Date.now();
    const response = await call("GET", "/api/v1/chat/visitor/messages?cursor=1&wait=8", visitor(started));
    const ms = Date.now() - startedAt;
    expect(afterFirstRead).toBeNull(); // the barrier ran
    expect(response.status).toBe(200);
    expect(response.json.result.items.map((m: { body: string }) => m.body)).toEqual(["just in time"]);
    expect(ms).toBeLessThan(4_000); // not held for the 8 s asked
  });

  test("so does a reply committed after the first read on an instance that already listens", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    afterFirstRead = async () => {
      await staffReply(started.conversationId, staff.id, "again");
    };
    const startedAt = Date.now();
    const response = await call("GET", "/api/v1/chat/visitor/messages?cursor=1&wait=8", visitor(started));
    expect(response.json.result.items.map((m: { body: string }) => m.body)).toEqual(["again"]);
    expect(Date.now() - startedAt).toBeLessThan(4_000);
  });
});

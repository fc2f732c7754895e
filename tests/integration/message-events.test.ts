import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "../../lib/db/client";
import { MESSAGE_CREATED, visibleToVisitorSql } from "../../lib/contracts/events";
import type { InboxEvent } from "../../lib/contracts/inbox-events";
import { subscribeInbox } from "../../lib/realtime/inbox-signals";
import { ensureListening, stopListening, subscribe } from "../../lib/realtime/message-signals";
import { createMember, openConversation, staffReply } from "../support/fixtures";

// A stored message's three roads out of the database (lib/contracts/events.ts): the outbox row
// (message.created), the long-poll wake-up and the inbox event. The first two carry public
// messages only; the inbox hears notes too.

let memberId: string;
// The first request loads the routes' modules: in the hook's time, not a test's.
beforeAll(async () => {
  memberId = (await createMember()).id;
  await openConversation();
});
afterAll(stopListening);

async function roadsOf(kind: "message" | "note") {
  const started = await openConversation();
  const heard: InboxEvent[] = [];
  const stopInbox = await subscribeInbox((event) => heard.push(event));
  await ensureListening();
  const longPoll = subscribe(started.conversationId);
  const message = (await staffReply(started.conversationId, memberId, "Who reads this?", kind)) as { id: string };
  const woke = await longPoll.next(kind === "message" ? 5_000 : 500);
  longPoll.close();
  const isOurs = (event: InboxEvent) => event.type === "message" && event.conversation_id === started.conversationId;
  await vi.waitFor(() => expect(heard.some(isOurs)).toBe(true), { timeout: 5_000 });
  stopInbox();
  const outbox = await (await db()).notificationEvent.count({ where: { type: MESSAGE_CREATED, subjectId: message.id } });
  return { woke, inbox: heard.filter(isOurs), outbox };
}

describe("a stored message's roads", () => {
  test("a public message reaches the outbox as message.created, wakes the long-polls and tells the inbox", async () => {
    const roads = await roadsOf("message");
    expect(roads.outbox).toBe(1);
    expect(roads.woke).toBe("message");
    expect(roads.inbox).toEqual([expect.objectContaining({ author_type: "staff", kind: "message" })]);
  });

  test("a note tells the inbox only: no outbox event, no long-poll wake-up", async () => {
    const roads = await roadsOf("note");
    expect(roads.outbox).toBe(0);
    expect(roads.woke).toBe("timeout");
    expect(roads.inbox).toEqual([expect.objectContaining({ author_type: "staff", kind: "note" })]);
  });

  test("the outbox trigger filters with the vocabulary's filter and names the vocabulary's event", async () => {
    const [trigger] = await (await db()).$queryRawUnsafe<{ definition: string }[]>(
      `SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE tgname = 'messages_notify'`,
    );
    expect(trigger?.definition).toContain(`WHEN ((${visibleToVisitorSql("new")}::text))`);
    expect(trigger?.definition).toContain(`parley_notify('${MESSAGE_CREATED}')`);
  });
});

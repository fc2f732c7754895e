import { describe, expect, test } from "vitest";
import {
  decodeLongPollPayload,
  isVisibleToVisitor,
  messageStored,
  parseInboxEvent,
  parseSessionsEnded,
  sessionsEndedPayload,
  staffTypingPayload,
  visibleToVisitorSql,
} from "./events";

function decoded(payload: string) {
  const heard: string[] = [];
  decodeLongPollPayload(payload, (id) => heard.push(`message ${id}`), (id) => heard.push(`typing ${id}`));
  return heard;
}

describe("the message road names", () => {
  test("a stored message is message.created in the outbox and `m` on the inbox channel", () => {
    expect(messageStored.outbox).toBe("message.created");
    expect(messageStored.inbox).toBe("m");
  });

  test("only kind `message` is visible to the visitor, in TypeScript and in SQL alike", () => {
    expect(isVisibleToVisitor({ kind: "message" })).toBe(true);
    expect(isVisibleToVisitor({ kind: "note" })).toBe(false);
    expect(visibleToVisitorSql("m")).toBe("m.kind = 'message'");
  });
});

describe("the long-poll channel's payloads", () => {
  test("a message's payload and a staff typing's payload decode to what they were encoded from", () => {
    expect(decoded("c_1")).toEqual(["message c_1"]);
    expect(decoded(staffTypingPayload("c_1"))).toEqual(["typing c_1"]);
  });
});

describe("the inbox channel's payloads", () => {
  test("each trigger's payload becomes its typed event, a note's message included", () => {
    expect(parseInboxEvent("m c_1 visitor message")).toEqual({ type: "message", conversation_id: "c_1", author_type: "visitor", kind: "message" });
    expect(parseInboxEvent("m c_1 staff note")).toEqual({ type: "message", conversation_id: "c_1", author_type: "staff", kind: "note" });
    expect(parseInboxEvent("c c_1")).toEqual({ type: "conversation", conversation_id: "c_1" });
    expect(parseInboxEvent("t c_1 1")).toEqual({ type: "typing", conversation_id: "c_1", typing: true });
    expect(parseInboxEvent("t c_1 0")).toEqual({ type: "typing", conversation_id: "c_1", typing: false });
    expect(parseInboxEvent("k t_1 created")).toEqual({ type: "ticket", ticket_id: "t_1", change: "created" });
  });

  test("an unknown or incomplete payload is no inbox event", () => {
    for (const payload of ["", "m", "x c_1", "k t_1 deleted", "s session_1"]) expect(parseInboxEvent(payload)).toBeNull();
  });

  test("a session-ended signal decodes to whose streams it ends, and nothing else does", () => {
    for (const ended of [{ sessionId: "s_1" }, { memberId: "m_1" }]) expect(parseSessionsEnded(sessionsEndedPayload(ended))).toEqual(ended);
    for (const payload of ["m c_1 visitor message", "s", "s a b", "c c_1"]) expect(parseSessionsEnded(payload)).toBeNull();
  });
});

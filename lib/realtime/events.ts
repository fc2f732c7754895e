import type { InboxEvent } from "../contracts/inbox-events";
import { INBOX_CHANNEL, MESSAGE_CHANNEL, PRESENCE_PAYLOAD_PREFIX } from "../contracts/realtime-channels";

export { INBOX_CHANNEL, MESSAGE_CHANNEL, PRESENCE_PAYLOAD_PREFIX };

// What the database tells this process, and how: two NOTIFY channels, their payloads, and the
// typed events they become (docs/architecture.md, "When a row is stored, who hears it").
//
// - MESSAGE_CHANNEL, sent by the widget's hot statements (lib/conversations/statements.ts APPEND_MESSAGE,
//   lib/conversations/presence.ts UPSERT_PRESENCE): payload `<conversation id>` is `message` (a public
//   message was stored), `p:<conversation id>` is `staff_typing` (a staff member's typing changed).
//   Heard by the widget's long-polls (message-signals.ts). Its payloads are parsed on the hot path
//   without allocating: a slice at most.
// - INBOX_CHANNEL, sent by the triggers of migrations 20261123020000 (`m`, `c`, `t` payloads: an
//   `inbox` event) and 20261130040000 (`k`: a ticket) and by publishSessionsEnded (`s`, `d`: `sessions_ended`). Heard by the inbox's
//   event streams (inbox-signals.ts).

/** Whose inbox streams a session-ended signal ends. */
export type SessionsEnded = { sessionId: string } | { memberId: string };

/** Each kind of event the listener delivers, and its argument. */
export interface RealtimeEvents {
  /** A public message was stored in the conversation. */
  message: string;
  /** A staff member's typing presence changed in the conversation. */
  staff_typing: string;
  /** A message, conversation change or visitor typing, for the inbox. */
  inbox: InboxEvent;
  /** Sessions were deleted (sign-out, deactivation…): their inbox streams end, on every instance. */
  sessions_ended: SessionsEnded;
}
export type RealtimeEventKind = keyof RealtimeEvents;

export function parseInboxEvent(payload: string): InboxEvent | null {
  const [kind, id, a, b] = payload.split(" ");
  if (!id) return null;
  if (kind === "m") return { type: "message", conversation_id: id, author_type: a ?? "", kind: b ?? "" };
  if (kind === "c") return { type: "conversation", conversation_id: id };
  if (kind === "t") return { type: "typing", conversation_id: id, typing: a === "1" };
  if (kind === "k" && (a === "created" || a === "updated")) return { type: "ticket", ticket_id: id, change: a };
  return null;
}

export function parseSessionsEnded(payload: string): SessionsEnded | null {
  const [kind, id, extra] = payload.split(" ");
  if (!id || extra !== undefined) return null;
  if (kind === "s") return { sessionId: id };
  if (kind === "d") return { memberId: id };
  return null;
}

/** The NOTIFY payload of a sessions_ended event. */
export const sessionsEndedPayload = (ended: SessionsEnded) => ("sessionId" in ended ? `s ${ended.sessionId}` : `d ${ended.memberId}`);

import type { InboxEvent } from "./inbox-events";

// What a stored row tells the rest of Parley, each fact named once, and how each road out of the
// database spells it (docs/architecture.md, "When a row is stored, who hears it"). The senders are
// SQL (the entities' statements, the triggers of the migrations named below); the hearers are
// lib/realtime (the two NOTIFY channels) and lib/notifications (the outbox). Pure functions and
// constants only: the inbox page reads this module's types too.

/** NOTIFY channel of the widget's long-polls: payloads from `longPollPayload`. */
export const MESSAGE_CHANNEL = "parley_messages";
/** NOTIFY channel of the inbox's event streams and of ended sessions: payloads decoded by `parseInboxEvent` and `parseSessionsEnded`. */
export const INBOX_CHANNEL = "parley_inbox";

/** Conversation ids never contain a colon, so a message's long-poll payload never starts with this. */
export const PRESENCE_PAYLOAD_PREFIX = "p:";

/** The one kind of message a visitor sees; every other (a note, a staff timeline event) stays in the inbox. */
export const VISITOR_KIND = "message";

/** Whether a stored message may leave the inbox: to the visitor's long-poll and list, to webhooks, to the outbox. */
export const isVisibleToVisitor = (message: { kind: string }): boolean => message.kind === VISITOR_KIND;

/**
 * The same filter in SQL, for a `messages` row named `row` (an alias, or `NEW` in a trigger). The
 * outbox trigger `messages_notify` (migration 20261123030000) holds it as `NEW."kind" = 'message'`;
 * tests/integration/message-events.test.ts checks that it agrees.
 */
export const visibleToVisitorSql = (row: string): string => `${row}.kind = '${VISITOR_KIND}'`;

/**
 * "A message was stored", as each of its three roads names it:
 * - `outbox`: the notification_events type the trigger `messages_notify` writes (public messages
 *   only), which is also the webhook event and the rules' event (a visitor's message);
 * - `inbox`: the first word of the INBOX_CHANNEL payload `m <conversation> <author type> <kind>`
 *   that the trigger `messages_inbox` sends for every message, notes included (staff see notes);
 * - on MESSAGE_CHANNEL, the bare conversation id (public messages only): APPEND_MESSAGE's, or
 *   its process's after APPEND_MESSAGE_SIGNALLED_AFTER (which also sends the inbox's for it).
 */
export const MESSAGE_CREATED = "message.created";
export const messageStored = { outbox: MESSAGE_CREATED, inbox: "m" } as const;

/** The INBOX_CHANNEL payload of a stored message, as the trigger `messages_inbox` spells it (and a process after its commit). */
export const inboxMessagePayload = (conversationId: string, authorType: string, kind: string) =>
  `${messageStored.inbox} ${conversationId} ${authorType} ${kind}`;

/**
 * A payload's entries, each handed to `handle`. A process NOTIFYs the signals of many writes in one
 * payload, one per line (lib/realtime/coalesced-notify.ts); what the database's statements and
 * triggers send is a single entry. No id, and so no entry, contains a newline.
 */
export function eachEntry(payload: string, handle: (entry: string) => void): void {
  let start = 0;
  for (let end = payload.indexOf("\n"); end >= 0; end = payload.indexOf("\n", start)) {
    handle(payload.slice(start, end));
    start = end + 1;
  }
  handle(start === 0 ? payload : payload.slice(start));
}

/** "A staff member's typing changed" on the long-poll road (UPSERT_PRESENCE). */
export const staffTypingPayload = (conversationId: string) => PRESENCE_PAYLOAD_PREFIX + conversationId;

/**
 * A MESSAGE_CHANNEL payload's meaning, handed to the matching callback. The hot path (every
 * message and staff typing of every widget): no allocation beyond the slice.
 */
export function decodeLongPollPayload(payload: string, onMessage: (conversationId: string) => void, onStaffTyping: (conversationId: string) => void): void {
  if (payload.startsWith(PRESENCE_PAYLOAD_PREFIX)) onStaffTyping(payload.slice(PRESENCE_PAYLOAD_PREFIX.length));
  else onMessage(payload);
}

/**
 * An INBOX_CHANNEL payload, as the triggers send it: `m` (messageStored.inbox; migrations
 * 20261123020000, 20261128060000), `c <conversation>`, `t <conversation> 1|0` (20261123020000,
 * 20261126010000) and `k <ticket> created|updated` (20261130040000). null for anything else.
 */
export function parseInboxEvent(payload: string): InboxEvent | null {
  const [kind, id, a, b] = payload.split(" ");
  if (!id) return null;
  if (kind === messageStored.inbox) return { type: "message", conversation_id: id, author_type: a ?? "", kind: b ?? "" };
  if (kind === "c") return { type: "conversation", conversation_id: id };
  if (kind === "t") return { type: "typing", conversation_id: id, typing: a === "1" };
  if (kind === "k" && (a === "created" || a === "updated")) return { type: "ticket", ticket_id: id, change: a };
  return null;
}

/** Whose inbox streams a session-ended signal ends. */
export type SessionsEnded = { sessionId: string } | { memberId: string };

/** The INBOX_CHANNEL payload of a sessions_ended signal: `s <session>` or `d <member>`. */
export const sessionsEndedPayload = (ended: SessionsEnded) => ("sessionId" in ended ? `s ${ended.sessionId}` : `d ${ended.memberId}`);

export function parseSessionsEnded(payload: string): SessionsEnded | null {
  const [kind, id, extra] = payload.split(" ");
  if (!id || extra !== undefined) return null;
  if (kind === "s") return { sessionId: id };
  if (kind === "d") return { memberId: id };
  return null;
}

import { queryPrepared } from "../db";
import { PUBLIC_MESSAGES_AFTER } from "../hot-statements";
import { AppError } from "../http/errors";
import type { VisitorSession } from "../tokens/visitor-token";
import { ensureListening, quietSince, subscribe } from "../realtime/message-signals";
import { markVisitorSeen } from "../conversations/visitor-seen";
import { appendMessage, type NewMessage } from "./append-message";
import { fromMessageSqlRow, toWireMessage, type MessageSqlRow } from "./message-view";

type VisitorInput = { body: string; clientId: string; kind: "message" | "note" };

export async function sendVisitorMessage(visitor: VisitorSession, input: VisitorInput) {
  return appendMessage(visitorMessage(visitor, input));
}

/** The message a visitor's send appends; a note is refused (400 note_rejected). */
export function visitorMessage(visitor: VisitorSession, input: VisitorInput): NewMessage {
  if (input.kind === "note") throw new AppError("note_rejected", "Visitors cannot send notes.");
  return {
    conversationId: visitor.conversation.id,
    authorType: "visitor",
    authorId: visitor.conversation.visitorId,
    kind: "message",
    body: input.body,
    clientId: input.clientId,
  };
}

interface Page {
  cursor: number;
  limit: number;
}

// While the NOTIFY listener is down, a held request looks for itself this often.
const FALLBACK_POLL_MS = 1_000;

/**
 * Lists messages after `cursor`. With `wait` seconds and nothing new, holds the request until a
 * public message arrives, the time is up (then an empty page), or the client goes away.
 */
export async function listVisitorMessages(visitor: VisitorSession, page: Page & { wait: number }, signal?: AbortSignal) {
  if (page.wait === 0) {
    // The idle poll, by far the commonest request: nothing can be newer than the last sequence.
    if (page.cursor >= visitor.conversation.lastSequence) return emptyPage(page.cursor);
    return readPage(visitor, page);
  }
  // Subscribe, then make sure the LISTEN connection is up, then read (unless nothing can be
  // new): a message committed after the read is then always signalled, on a fresh process's
  // first wait as on every later one.
  const subscription = subscribe(visitor.conversation.id);
  try {
    const deadline = Date.now() + page.wait * 1000;
    await ensureListening();
    let current = nothingNewSinceLookup(visitor, page) ? emptyPage(page.cursor) : await readPage(visitor, page);
    while (current.items.length === 0 && Date.now() < deadline) {
      const listening = await ensureListening(); // reconnects (and wakes everyone) if it was lost
      const remaining = deadline - Date.now();
      const outcome = await subscription.next(listening ? remaining : Math.min(remaining, FALLBACK_POLL_MS), signal);
      if (outcome === "aborted") break;
      if (outcome === "message" || !listening) current = await readPage(visitor, page);
    }
    return current;
  } finally {
    subscription.close();
  }
}

/**
 * Whether a long-poll, once subscribed, may start from the empty page without reading — the usual
 * re-issued poll of an idle widget, which then costs the token lookup alone. Nothing is missed:
 * - every public message committed before the lookup's snapshot is counted in its `lastSequence`
 *   (APPEND_MESSAGE bumps last_sequence in the statement that inserts the message; a first
 *   message is written with the token itself), so with `cursor >= lastSequence` only messages
 *   committed after that snapshot can be new;
 * - each of those is signalled after its commit, so after `lookedUpAt`: on PGlite by
 *   signalMessage once the append (or the closing transaction) has committed; on PostgreSQL by
 *   the append's pg_notify, delivered on commit to every LISTEN connection of every instance,
 *   whichever instance appended (the payload names the conversation, all a signal needs to say);
 * - this process either received that signal before `subscribe` — then quietSince finds it
 *   recorded at or after `lookedUpAt` — or after, and then it wakes the subscription;
 * - quietSince also says no unless this process's LISTEN connection has been up since before
 *   `lookedUpAt` (a NOTIFY sent while it was down reached nobody here) and everything recorded
 *   since `lookedUpAt` is still kept. A connection lost after the check wakes every subscription.
 * Staff notes neither bump `lastSequence` nor signal, and are never listed here.
 */
function nothingNewSinceLookup(visitor: VisitorSession, page: Page): boolean {
  return page.cursor >= visitor.conversation.lastSequence && quietSince(visitor.conversation.id, visitor.lookedUpAt);
}

export const emptyPage = (cursor: number) => ({ items: [], next_cursor: cursor, has_more: false });

/** The conversation's public messages after `cursor`, ascending; staff notes never appear. */
async function readPage(visitor: VisitorSession, page: Page) {
  const rows = await queryPrepared<MessageSqlRow>(PUBLIC_MESSAGES_AFTER, [visitor.conversation.id, page.cursor, page.limit + 1]);
  const read = pageOf(rows, visitor, page);
  if (read.items.length > 0) await markVisitorSeen(visitor.conversation.id, read.items.at(-1)!.sequence);
  return read;
}

/** The page of PUBLIC_MESSAGES_AFTER's rows (asked for limit + 1, to tell whether more follow). */
export function pageOf(rows: MessageSqlRow[], visitor: VisitorSession, page: Page) {
  const items = rows.slice(0, page.limit).map((row) => toWireMessage(fromMessageSqlRow(row), visitor.conversation.visitorName));
  return { items, next_cursor: items.at(-1)?.sequence ?? page.cursor, has_more: rows.length > page.limit };
}

import { queryPrepared } from "../db";
import { PUBLIC_MESSAGES_AFTER } from "../hot-statements";
import { AppError } from "../http/errors";
import type { VisitorSession } from "../tokens/visitor-token";
import { ensureListening, subscribe } from "../realtime/message-signals";
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
  // Subscribe, then make sure the LISTEN connection is up, then read: a message committed after
  // the read is then always signalled, on a fresh process's first wait as on every later one.
  const subscription = subscribe(visitor.conversation.id);
  try {
    const deadline = Date.now() + page.wait * 1000;
    await ensureListening();
    let current = await readPage(visitor, page);
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

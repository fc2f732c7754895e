import { queryPrepared } from "../db/client";
import { PUBLIC_MESSAGES_AFTER } from "./statements";
import { AppError } from "../core/errors";
import type { VisitorSession } from "../tokens/visitor-token";
import { ensureListening, presenceQuietSince, quietSince, subscribe } from "../realtime/message-signals";
import { markVisitorSeen } from "./visitor-seen";
import { livePresence, PRESENCE_TTL_MS, type PresenceEntry } from "./presence";
import { appendMessage, type NewMessage } from "./append-message";
import { fromMessageSqlRow, toWireMessage, type MessageSqlRow } from "./message-view";

type VisitorInput = { body: string; clientId: string; kind: "message" | "note"; attachments?: string[] };

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
    attachmentIds: input.attachments,
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
 *
 * With `presence` (epoch ms: the newest `expires_at` of others' presence entries the client has
 * seen), the answer also carries the live presence entries (as GET /visitor/presence answers
 * them), and the hold also ends when one of them is newer than that — a staff member started or
 * stopped typing. An entry merely expiring answers nothing: the widget hides it at its expiry.
 */
export async function listVisitorMessages(visitor: VisitorSession, page: Page & { wait: number; presence?: number }, signal?: AbortSignal) {
  const typing = page.presence === undefined ? null : new Typing(visitor, page.presence);
  if (page.wait === 0) {
    const current = page.cursor >= visitor.conversation.lastSequence ? emptyPage(page.cursor) : await readPage(visitor, page);
    // Unsubscribed, a staff write committed but not yet signalled here may be missed by the
    // quiet check: this answer then lacks it, the next poll (its signal recorded by then) has it.
    if (typing && !typing.quiet()) await typing.read();
    return typing ? typing.answer(current) : current;
  }
  // Subscribe, then make sure the LISTEN connection is up, then read (unless nothing can be
  // new): a message (or staff presence) committed after the read is then always signalled, on a
  // fresh process's first wait as on every later one.
  const subscription = subscribe(visitor.conversation.id, typing !== null);
  try {
    const deadline = Date.now() + page.wait * 1000;
    await ensureListening();
    let current = nothingNewSinceLookup(visitor, page) ? emptyPage(page.cursor) : await readPage(visitor, page);
    if (typing && !typing.quiet()) await typing.read();
    while (current.items.length === 0 && !typing?.somethingNew() && Date.now() < deadline) {
      const listening = await ensureListening(); // reconnects (and wakes everyone) if it was lost
      const remaining = deadline - Date.now();
      const outcome = await subscription.next(listening ? remaining : Math.min(remaining, FALLBACK_POLL_MS), signal);
      if (outcome === "aborted") break;
      if (outcome === "message" || !listening) current = await readPage(visitor, page);
      // A message reads presence too: its author's typing ended with it (staff-commands.ts
      // `sendEndingTyping`), and one answer carries both.
      if (typing && (outcome !== "timeout" || !listening)) await typing.read();
    }
    return typing ? typing.answer(current) : current;
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
 *   signalMessage once the append (or the closing transaction) has committed; on PostgreSQL by a
 *   NOTIFY delivered to every LISTEN connection of every instance, whichever instance appended
 *   (the payload names the conversation, all a signal needs to say): the hot append's process
 *   sends it right after the commit, coalesced with its other sends' (lib/realtime/coalesced-notify.ts),
 *   other appends with their commit. Later than the commit is as good: the signal still comes
 *   after `lookedUpAt`. Only a process dying between its commit and its NOTIFY (or a failed
 *   NOTIFY, logged) leaves a message unsignalled: a poll held for it answers at its `wait`, and
 *   the next poll's token lookup counts it in `lastSequence`, so it reads it;
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

// How far back a presence signal may lie and still be behind an entry that is live now: an entry
// lives PRESENCE_TTL_MS after the writer's clock said it was written, and that clock may run a
// little ahead of this one (another instance).
const PRESENCE_LOOKBACK_MS = PRESENCE_TTL_MS + 5_000;

/** Others' typing presence for a long-poll that asked for it (`presence`, the newest expiry seen). */
class Typing {
  private entries: PresenceEntry[] = [];

  constructor(
    private readonly visitor: VisitorSession,
    private readonly seen: number,
  ) {}

  /**
   * Whether the poll, once subscribed, may take "no live entry" as its presence without reading it
   * — the usual re-issued poll of an idle open widget, which then costs the token lookup alone.
   * Others' entries are written by staff only (the visitor is the conversation's one visitor, and
   * its own entry is never shown to it). Nothing is missed:
   * - an entry live now was written less than PRESENCE_TTL_MS ago by its writer's clock (setPresence
   *   sets expires_at = now + PRESENCE_TTL_MS before the statement runs), so within
   *   PRESENCE_LOOKBACK_MS by this process's clock, clocks a few seconds apart included;
   * - each staff write is signalled after its commit: on PGlite by setPresence once the upsert has
   *   returned; on PostgreSQL by the upsert's pg_notify, delivered on commit to every LISTEN
   *   connection of every instance (payload PRESENCE_PAYLOAD_PREFIX + conversation id);
   * - this process either received that signal before `subscribe` — then presenceQuietSince finds
   *   it recorded within the lookback — or after, and then it wakes the subscription, which reads;
   * - presenceQuietSince also says no unless this process has been recording signals, and its
   *   LISTEN connection has been up, for the whole lookback (a NOTIFY sent while it was down, or an
   *   embedded process's write before a restart, reached nobody here), and everything recorded
   *   since is still kept (SIGNAL_MEMORY_MS is far longer). A connection lost after the check wakes
   *   every subscription.
   * So when it says yes, no entry of another actor is live now: the empty list is the true answer.
   */
  quiet(): boolean {
    return presenceQuietSince(this.visitor.conversation.id, performance.now() - PRESENCE_LOOKBACK_MS);
  }

  async read(): Promise<void> {
    this.entries = await livePresence(this.visitor.conversation.id, this.visitor.conversation.visitorId);
  }

  /** An entry the client has not seen: set (or refreshed, or set to not typing) after what it has. */
  somethingNew(): boolean {
    return this.entries.some((entry) => Date.parse(entry.expires_at) > this.seen);
  }

  /** The page with the entries still live (a held poll may answer after some expired). */
  answer<Result extends object>(page: Result) {
    const now = Date.now();
    return { ...page, presence: this.entries.filter((entry) => Date.parse(entry.expires_at) > now) };
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

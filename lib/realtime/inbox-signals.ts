import { EventEmitter } from "node:events";
import pg from "pg";
import type { InboxEvent } from "../contracts/inbox-events";
import { listenEmbedded, queryPrepared, type PreparedStatement } from "../db/client";
import { directDatabaseUrl } from "../core/env";
import { log } from "../core/log";

// The inbox's live updates. Triggers in the database (migration 20261123020000) NOTIFY on
// `parley_inbox` for every message, conversation change and visitor typing, whoever wrote them.
// Each process holds one LISTEN connection (PostgreSQL) or PGlite's in-process listener, and fans
// the events out to its open inbox streams. Separate from lib/realtime/message-signals.ts (the
// widget's long-polls), which it leaves alone; both LISTEN on directDatabaseUrl() (a transaction
// pooler cannot carry LISTEN).
//
// Whatever deletes sessions (sign-out, deactivation, an email removed or changed, a new invite
// accepted) sends a signal of its own on the same channel (publishSessionsEnded): `s <session id>`
// (that session ended) or `d <member id>` (every session of the member ended). Each instance ends
// its matching streams; these are never delivered to a stream as data.

export const INBOX_CHANNEL = "parley_inbox";

export type { InboxEvent };

interface State {
  emitter: EventEmitter;
  started: Promise<void> | null;
  client: pg.Client | null;
}
const processWide = globalThis as unknown as { parleyInboxSignals?: State };
const state: State = (processWide.parleyInboxSignals ??= {
  emitter: new EventEmitter().setMaxListeners(0),
  started: null,
  client: null,
});

export function parseInboxEvent(payload: string): InboxEvent | null {
  const [kind, conversationId, a, b] = payload.split(" ");
  if (!conversationId) return null;
  if (kind === "m") return { type: "message", conversation_id: conversationId, author_type: a ?? "", kind: b ?? "" };
  if (kind === "c") return { type: "conversation", conversation_id: conversationId };
  if (kind === "t") return { type: "typing", conversation_id: conversationId, typing: a === "1" };
  return null;
}

/** Whose streams a session-ended signal ends. */
export type SessionsEnded = { sessionId: string } | { memberId: string };

function parseSessionsEnded(payload: string): SessionsEnded | null {
  const [kind, id, extra] = payload.split(" ");
  if (!id || extra !== undefined) return null;
  if (kind === "s") return { sessionId: id };
  if (kind === "d") return { memberId: id };
  return null;
}

function deliver(payload: string): void {
  const event = parseInboxEvent(payload);
  if (event) {
    state.emitter.emit("event", event);
    return;
  }
  const ended = parseSessionsEnded(payload);
  if (ended) state.emitter.emit("ended", ended);
}

const RECONNECT_MS = 1_000;

function start(): Promise<void> {
  // LISTEN needs a session of its own: the direct URL when DATABASE_URL goes through a pooler.
  const listenUrl = directDatabaseUrl();
  state.started ??= (listenUrl ? connect(listenUrl) : listenEmbedded(INBOX_CHANNEL, deliver).then(() => {})).catch(
    (error: unknown) => {
      state.started = null;
      log.warn("inbox_listener_failed", { error });
      setTimeout(() => {
        if (state.emitter.listenerCount("event") > 0) void start();
      }, RECONNECT_MS).unref();
    },
  );
  return state.started;
}

async function connect(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2_000, keepAlive: true });
  const lost = () => {
    if (state.client !== client) return;
    state.client = null;
    state.started = null;
    client.end().catch(() => {});
    log.warn("inbox_listener_lost");
    setTimeout(() => {
      if (state.emitter.listenerCount("event") > 0) void start().then(() => state.emitter.emit("event", { type: "resync" }));
    }, RECONNECT_MS).unref();
  };
  client.on("notification", (message) => {
    if (message.channel === INBOX_CHANNEL && message.payload) deliver(message.payload);
  });
  client.on("error", lost);
  client.on("end", lost);
  await client.connect();
  await client.query(`LISTEN ${INBOX_CHANNEL}`);
  state.client = client;
}

/** A stream's session: `onEnded` runs when a session-ended signal names the session or its member. */
export interface StreamSession {
  sessionId: string;
  memberId: string;
  onEnded: () => void;
}

/**
 * Calls `listener` with every inbox event in this process until the returned function is called;
 * with `session`, also calls its `onEnded` when that session ends (on any instance).
 */
export async function subscribeInbox(listener: (event: InboxEvent) => void, session?: StreamSession): Promise<() => void> {
  const onEnded = (ended: SessionsEnded) => {
    if ("sessionId" in ended ? ended.sessionId === session!.sessionId : ended.memberId === session!.memberId) session!.onEnded();
  };
  state.emitter.on("event", listener);
  if (session) state.emitter.on("ended", onEnded);
  await start();
  return () => {
    state.emitter.off("event", listener);
    state.emitter.off("ended", onEnded);
  };
}

const NOTIFY_INBOX: PreparedStatement = { name: "notify_inbox", text: `SELECT pg_notify('${INBOX_CHANNEL}', $1)` };

/**
 * Ends the open event streams of a session, or of every session of a member, on every instance
 * (a NOTIFY; PGlite delivers it in-process). Call it after the session rows are gone. Never
 * throws: a lost signal is caught by each stream's heartbeat, which re-checks its session.
 */
export async function publishSessionsEnded(ended: SessionsEnded): Promise<void> {
  const payload = "sessionId" in ended ? `s ${ended.sessionId}` : `d ${ended.memberId}`;
  await queryPrepared(NOTIFY_INBOX, [payload]).catch((error: unknown) => log.warn("inbox_sessions_ended_signal_failed", { error }));
}

/** How many inbox streams are open in this process (tests, diagnostics). */
export const openInboxStreams = () => state.emitter.listenerCount("event");

/** Closes the LISTEN connection (tests, scripts). */
export async function stopInboxListening(): Promise<void> {
  const client = state.client;
  state.client = null;
  state.started = null;
  if (client) {
    client.removeAllListeners("end");
    client.removeAllListeners("error");
    await client.end().catch(() => {});
  }
}

import { EventEmitter } from "node:events";
import type { InboxEvent } from "../contracts/inbox-events";
import { log } from "../core/log";
import { queryPrepared, type PreparedStatement } from "../db/client";
import { INBOX_CHANNEL, sessionsEndedPayload, type SessionsEnded } from "../contracts/events";
import { addConsumer, listen, stopListening } from "./listener";
import { processSingleton } from "../core/process-registry.mjs";

// The inbox's live updates. Triggers in the database (migration 20261123020000) NOTIFY on
// `parley_inbox` for every message, conversation change and visitor typing, whoever wrote them.
// The process's one listener (listener.ts: a LISTEN connection on directDatabaseUrl(), or PGlite's
// in-process listener) hands them here as `inbox` events, and they are fanned out to the open
// inbox streams. After the listener was lost (or failed to connect), its return is a `resync`.
//
// Whatever deletes sessions (sign-out, deactivation, an email removed or changed, a new invite
// accepted) sends a signal of its own on the same channel (publishSessionsEnded): `s <session id>`
// (that session ended) or `d <member id>` (every session of the member ended), the listener's
// `sessions_ended` events. Each instance ends its matching streams; these are never delivered to
// a stream as data.

export { INBOX_CHANNEL, parseInboxEvent, type SessionsEnded } from "../contracts/events";
export type { InboxEvent } from "../contracts/inbox-events";

// One per process (lib/core/process-registry.mjs), whichever copy of this module holds the stream.
const emitter = processSingleton("inbox events", () => new EventEmitter().setMaxListeners(0)); // one listener per open stream

addConsumer("inbox", {
  inbox: (event) => emitter.emit("event", event),
  sessions_ended: (ended) => emitter.emit("ended", ended),
  connected: (again) => {
    if (again) emitter.emit("event", { type: "resync" } satisfies InboxEvent);
  },
  lost: () => {},
  waiting: () => emitter.listenerCount("event") > 0,
});

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
  emitter.on("event", listener);
  if (session) emitter.on("ended", onEnded);
  await listen(); // if it cannot connect now, it retries while streams are open, and they resync
  return () => {
    emitter.off("event", listener);
    emitter.off("ended", onEnded);
  };
}

const NOTIFY_INBOX: PreparedStatement = { name: "notify_inbox", text: `SELECT pg_notify('${INBOX_CHANNEL}', $1)` };

/**
 * Ends the open event streams of a session, or of every session of a member, on every instance
 * (a NOTIFY; PGlite delivers it in-process). Call it after the session rows are gone. Never
 * throws: a lost signal is caught by each stream's heartbeat, which re-checks its session.
 */
export async function publishSessionsEnded(ended: SessionsEnded): Promise<void> {
  await queryPrepared(NOTIFY_INBOX, [sessionsEndedPayload(ended)]).catch((error: unknown) => log.warn("inbox_sessions_ended_signal_failed", { error }));
}

/** How many inbox streams are open in this process (tests, diagnostics). */
export const openInboxStreams = () => emitter.listenerCount("event");

/** Closes the process's LISTEN connection, the long-polls' too: one listener (tests, scripts). */
export const stopInboxListening = stopListening;

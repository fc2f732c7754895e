import { EventEmitter } from "node:events";
import { directDatabaseUrl } from "../core/env";
import { isDraining, onDrain } from "../core/lifecycle.mjs";
import { staffTypingPayload } from "../contracts/events";
import { addConsumer, listen, listeningSinceTime, stopListening as stopListener } from "./listener";
import { recentSignals, type RecentSignals } from "./recent-signals";
import { processSingleton } from "../core/process-registry.mjs";

// "A public message arrived in conversation X": the wake-up behind long-polling. On PGlite (one
// process) an in-process emitter carries it. On PostgreSQL it travels as NOTIFY on one channel,
// sent by the appending statement (so only committed messages wake anyone), and reaches the
// process's one listener (listener.ts), whose `message` events are fanned out in memory here.
// Each process also remembers when each conversation was last signalled (quietSince), so a
// long-poll can tell that nothing arrived since its token lookup without reading the messages.
//
// "A staff member's typing presence changed in conversation X" travels the same way, as a second
// kind of signal (the listener's `staff_typing`): its own event name, its own memory
// (presenceQuietSince). A long-poll that carries typing (`presence`) listens to both.
// One of each per process (lib/core/process-registry.mjs): a signal must reach every held request,
// whichever copy of this module holds it.
const emitter = processSingleton("message signals", () => new EventEmitter().setMaxListeners(0)); // one listener per held request
// How long the time of a conversation's last signal is kept: far longer than a token lookup takes.
const SIGNAL_MEMORY_MS = 60_000;
const recent = processSingleton("recent message signals", (): RecentSignals => recentSignals(SIGNAL_MEMORY_MS));
// Far longer than a presence entry lives (PRESENCE_TTL_MS), which is how far back a long-poll asks.
const recentPresence = processSingleton("recent presence signals", (): RecentSignals => recentSignals(SIGNAL_MEMORY_MS));
// Signals are recorded from here on: what came before (an earlier process's) is not on record.
const recordingSince = processSingleton("signals recorded since", () => performance.now());
/** The emitter's event of a presence signal (its NOTIFY payload); a message's is the bare id. */
const presenceEvent = staffTypingPayload;

/** Since when (performance.now()) this process has recorded signals (tests, diagnostics). */
export const signalsRecordedSince = (): number => recordingSince;

/** How many requests are held waiting for a message in this conversation (tests, diagnostics). */
export function waitingRequests(conversationId: string): number {
  return emitter.listenerCount(conversationId);
}

/** Notifications sent while no listener was connected are lost: every waiter must look for itself. */
function wakeEveryone(): void {
  for (const conversationId of emitter.eventNames()) emitter.emit(conversationId);
}

// Whoever subscribed before the listener came up may have missed a NOTIFY sent while nobody
// listened (a process's first connection as much as a reconnection), and whoever waits when it is
// lost would miss the next: both times they look for themselves (and the first to wait again
// reconnects it).
addConsumer("long-polls", {
  message: signalMessage,
  staff_typing: signalPresence,
  connected: wakeEveryone,
  lost: wakeEveryone,
  waiting: () => emitter.eventNames().length > 0,
});

/** Wakes local waiters for a conversation (PGlite, or a NOTIFY received from PostgreSQL). */
export function signalMessage(conversationId: string): void {
  recent.record(conversationId);
  emitter.emit(conversationId);
}

/** Wakes local waiters for a conversation's staff presence (PGlite, or a NOTIFY received from PostgreSQL). */
export function signalPresence(conversationId: string): void {
  recentPresence.record(conversationId);
  emitter.emit(presenceEvent(conversationId));
}

/**
 * Whether this process can be sure no message was signalled for the conversation at or after
 * `since` (a performance.now() time): none was received since then, and none can have been lost —
 * on PostgreSQL the LISTEN connection has been up since before `since` (a NOTIFY sent while
 * nobody listened reaches no one); PGlite's in-process signals are never lost.
 */
export function quietSince(conversationId: string, since: number): boolean {
  return listeningSince(since) && recent.quietSince(conversationId, since);
}

/**
 * The same for staff presence signals. Unlike a message (which the token lookup's last_sequence
 * also vouches for), nothing else tells of a presence write, so this also says no until the
 * process has been recording since `since` (an embedded process just restarted).
 */
export function presenceQuietSince(conversationId: string, since: number): boolean {
  return since >= recordingSince && listeningSince(since) && recentPresence.quietSince(conversationId, since);
}

function listeningSince(since: number): boolean {
  if (!directDatabaseUrl()) return true;
  const connectedAt = listeningSinceTime();
  return connectedAt !== null && connectedAt <= since;
}

/**
 * Whether wake-ups can be trusted right now, (re)connecting the listener if needed; if not,
 * waiters fall back to polling the database.
 */
export async function ensureListening(): Promise<boolean> {
  // On PGlite nothing is ever missed: the writes wake this process's long-polls themselves.
  if (!directDatabaseUrl()) return true;
  return listeningSinceTime() !== null || listen();
}

type Outcome = "message" | "presence" | "timeout" | "aborted";

export interface Subscription {
  /**
   * Resolves at the first signal since subscribing (or since the last call), after `timeoutMs`, or
   * ("aborted") when `signal` aborts or the server starts shutting down (held long-polls then
   * answer at once). A message signal is told before a presence signal that came with it; the
   * other is kept for the next call.
   */
  next(timeoutMs: number, signal?: AbortSignal): Promise<Outcome>;
  close(): void;
}

/**
 * Subscribe *before* reading, so a message stored between the read and the wait is not missed;
 * with `presence`, staff presence signals of the conversation wake it too.
 */
export function subscribe(conversationId: string, presence = false): Subscription {
  const pending = { message: false, presence: false };
  let wake: (() => void) | null = null;
  const onMessage = () => {
    pending.message = true;
    wake?.();
  };
  const onPresence = () => {
    pending.presence = true;
    wake?.();
  };
  const take = (): Outcome | null => {
    for (const kind of ["message", "presence"] as const) {
      if (pending[kind]) {
        pending[kind] = false;
        return kind;
      }
    }
    return null;
  };
  emitter.on(conversationId, onMessage);
  if (presence) emitter.on(presenceEvent(conversationId), onPresence);
  return {
    next(timeoutMs, signal) {
      const signalled = take();
      if (signalled) return Promise.resolve(signalled);
      if (signal?.aborted || isDraining()) return Promise.resolve("aborted");
      return new Promise((resolve) => {
        const timer = setTimeout(() => finish("timeout"), timeoutMs);
        const onAbort = () => finish("aborted");
        const stopWatchingDrain = onDrain(onAbort);
        function finish(outcome: Outcome) {
          clearTimeout(timer);
          stopWatchingDrain();
          signal?.removeEventListener("abort", onAbort);
          wake = null;
          resolve(outcome);
        }
        wake = () => finish(take()!);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    close() {
      emitter.off(conversationId, onMessage);
      if (presence) emitter.off(presenceEvent(conversationId), onPresence);
    },
  };
}

/** Closes the process's LISTEN connection, the inbox's too: one listener (tests, scripts). */
export const stopListening = stopListener;

import pg from "pg";
import { directDatabaseUrl } from "../core/env";
import { log } from "../core/log";
import { listenEmbedded } from "../db/client";
import { INBOX_CHANNEL, MESSAGE_CHANNEL, decodeLongPollPayload, eachEntry, parseInboxEvent, parseSessionsEnded } from "../contracts/events";
import type { RealtimeEventKind, RealtimeEvents } from "./events";
import { processSingleton } from "../core/process-registry.mjs";

// The process's one listener for the database's NOTIFYs (lib/contracts/events.ts names the
// channels and payloads, ./events.ts the events). On PostgreSQL: ONE connection on
// directDatabaseUrl() (a transaction pooler cannot carry LISTEN) that LISTENs on both channels; on PGlite: the embedded database's in-process listener
// (the inbox's triggers; the widget's own writes signal their long-polls directly there). Each
// event goes to the one consumer of its kind: message-signals.ts (the widget's long-polls) or
// inbox-signals.ts (the inbox's event streams).
//
// The reconnect policy, the same for both consumers:
// - connect on demand (a long-poll's wait, an inbox stream opening), one attempt at a time;
// - a lost connection is retried at once; a failed attempt after 1 s, then 2 s, 4 s, at most 5 s
//   apart, by a timer while a consumer has someone waiting (and not before then on demand:
//   meanwhile long-polls poll the database, ensureListening() answering false);
// - on losing the connection, and on every connection, each consumer is told: NOTIFYs sent while
//   nobody listened reached no one. Long-polls then look for themselves (every held request
//   re-reads); inbox streams get `resync` when the connection comes back after a loss or a failed
//   attempt.

/** What a consumer does with the events of its kinds and with the connection's ups and downs. */
export type Consumer = { [K in RealtimeEventKind]?: (event: RealtimeEvents[K]) => void } & {
  /** The listener is up: from now on every NOTIFY reaches it. `again`: it was lost (or an attempt failed) since it was last up. */
  connected(again: boolean): void;
  /** The listener was lost: NOTIFYs may go unheard until it is back. */
  lost(): void;
  /** Whether someone is waiting for this consumer's events (a lost listener is then retried by a timer). */
  waiting(): boolean;
};
type Handlers = { [K in RealtimeEventKind]: ((event: RealtimeEvents[K]) => void) | null };

interface ListenerState {
  client: pg.Client | null;
  /** PGlite: ends the in-process subscription, once made. */
  embedded: (() => Promise<void>) | null;
  connecting: Promise<boolean> | null;
  /** performance.now() once `client` was listening (null while there is none). */
  connectedAt: number | null;
  /** Failed attempts since the last connection, and the time before which none is made. */
  failures: number;
  retryAt: number;
  retryTimer: ReturnType<typeof setTimeout> | null;
  /** The listener was lost, or an attempt failed, since it was last up. */
  interrupted: boolean;
  /** One handler per kind of event: the consumer's (a module loaded again by Next replaces its earlier copy's). */
  handlers: Handlers;
  consumers: Map<string, Consumer>;
}
// One per process (lib/core/process-registry.mjs): the process holds one listener, whichever copy
// of this module started it.
const state = processSingleton<ListenerState>("realtime listener", () => ({
  client: null,
  embedded: null,
  connecting: null,
  connectedAt: null,
  failures: 0,
  retryAt: 0,
  retryTimer: null,
  interrupted: false,
  handlers: { message: null, staff_typing: null, inbox: null, sessions_ended: null },
  consumers: new Map(),
}));

const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 5_000;
const CONNECT_TIMEOUT_MS = 2_000;

/** Registers the consumer of its kinds of events, under a name of its own. */
export function addConsumer(name: string, consumer: Consumer): void {
  state.consumers.set(name, consumer);
  for (const kind of Object.keys(state.handlers) as RealtimeEventKind[]) {
    const handler = consumer[kind];
    if (handler) (state.handlers as Record<RealtimeEventKind, unknown>)[kind] = handler;
  }
}

/**
 * The LISTEN connection while it is up (PostgreSQL), else null. Idle but for the NOTIFYs it
 * receives, it also sends this process's coalesced NOTIFYs (coalesced-notify.ts): they then never
 * queue behind the requests' statements for a pooled connection.
 */
export const listenerConnection = (): pg.Client | null => state.client;

/** `client` (a listenerConnection()) did not answer in time: treated as lost (consumers told, reconnected). */
export const listenerUnresponsive = (client: pg.Client): void => lose(client);

/** performance.now() since when the PostgreSQL listener has been up without a break, or null while it is down. */
export const listeningSinceTime = (): number | null => (state.client ? state.connectedAt : null);

/**
 * Makes sure the listener is up, connecting it if needed (and not backing off); whether it is.
 * Never throws.
 */
export function listen(): Promise<boolean> {
  if (state.client || state.embedded) return Promise.resolve(true);
  if (state.connecting) return state.connecting;
  if (performance.now() < state.retryAt) return Promise.resolve(false);
  const listenUrl = directDatabaseUrl();
  const attempt = (listenUrl ? connect(listenUrl) : subscribeEmbedded()).then(
    () => true,
    (error: unknown) => {
      failed(error);
      return false;
    },
  );
  state.connecting = attempt;
  void attempt.finally(() => {
    if (state.connecting === attempt) state.connecting = null;
  });
  return attempt;
}

const onMessage = (conversationId: string) => state.handlers.message?.(conversationId);
const onStaffTyping = (conversationId: string) => state.handlers.staff_typing?.(conversationId);
const onLongPollEntry = (entry: string) => decodeLongPollPayload(entry, onMessage, onStaffTyping);

// A payload carries one signal, or a process's batch of them, one per line (coalesced-notify.ts).
function onNotification(message: pg.Notification): void {
  const payload = message.payload;
  if (!payload) return;
  if (message.channel === MESSAGE_CHANNEL) eachEntry(payload, onLongPollEntry);
  else if (message.channel === INBOX_CHANNEL) eachEntry(payload, onInboxPayload);
}

function onInboxPayload(payload: string): void {
  const event = parseInboxEvent(payload);
  if (event) return state.handlers.inbox?.(event);
  const ended = parseSessionsEnded(payload);
  if (ended) state.handlers.sessions_ended?.(ended);
}

async function connect(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, application_name: "parley_listener" });
  client.on("notification", onNotification);
  client.on("error", () => lose(client));
  client.on("end", () => lose(client));
  try {
    await client.connect();
    await client.query(`LISTEN ${MESSAGE_CHANNEL}; LISTEN ${INBOX_CHANNEL}`);
  } catch (error) {
    client.end().catch(() => {});
    throw error;
  }
  state.client = client;
  state.connectedAt = performance.now(); // after LISTEN took effect: every later commit's NOTIFY reaches it
  log.info("realtime_listener_connected");
  up();
}

async function subscribeEmbedded(): Promise<void> {
  state.embedded = await listenEmbedded(INBOX_CHANNEL, onInboxPayload);
  up();
}

function up(): void {
  const again = state.interrupted;
  state.failures = 0;
  state.retryAt = 0;
  state.interrupted = false;
  for (const consumer of state.consumers.values()) consumer.connected(again);
}

function failed(error: unknown): void {
  state.failures += 1;
  state.retryAt = performance.now() + Math.min(FIRST_RETRY_MS * 2 ** (state.failures - 1), LONGEST_RETRY_MS);
  state.interrupted = true;
  log.warn("realtime_listener_failed", { error, attempt: state.failures });
  retryWhileWaited();
}

function lose(client: pg.Client): void {
  if (state.client !== client) return;
  state.client = null;
  state.connectedAt = null;
  state.interrupted = true;
  log.warn("realtime_listener_lost");
  client.end().catch(() => {});
  for (const consumer of state.consumers.values()) consumer.lost();
  retryWhileWaited(); // at once: retryAt is 0 after a connection
}

/** Retries (when the backoff allows) if a consumer has someone waiting; they may also ask sooner, on demand. */
function retryWhileWaited(): void {
  if (state.retryTimer) return;
  state.retryTimer = setTimeout(
    () => {
      state.retryTimer = null;
      if ([...state.consumers.values()].some((consumer) => consumer.waiting())) void listen();
    },
    Math.max(0, state.retryAt - performance.now()),
  );
  state.retryTimer.unref();
}

/** Closes the listener (tests, scripts); the next listen() starts afresh. */
export async function stopListening(): Promise<void> {
  if (state.retryTimer) clearTimeout(state.retryTimer);
  const { client, embedded } = state;
  Object.assign(state, { retryTimer: null, failures: 0, retryAt: 0, interrupted: false, client: null, connectedAt: null, embedded: null });
  if (embedded) void Promise.resolve().then(embedded).catch(() => {}); // not awaited: the embedded database may be closing too
  if (client) {
    client.removeAllListeners("end");
    client.removeAllListeners("error");
    client.on("error", () => {});
    await client.end().catch(() => {});
  }
}

import { log } from "../core/log";
import { queryPrepared, type PreparedStatement } from "../db/client";
import { processSingleton } from "../core/process-registry.mjs";
import { holdShutdownFor } from "../core/lifecycle.mjs";
import { listenerConnection, listenerUnresponsive } from "./listener";

// The process's NOTIFYs after commit, coalesced (docs/performance.md, "The notification lock").
// PostgreSQL serialises the commits of all transactions that NOTIFY, on every database of the
// server, with one lock held from PreCommit_Notify to the end of the commit (WAL flush included):
// a send that NOTIFYs inside its own transaction queues behind every other one. The hot writes
// (APPEND_MESSAGE_SIGNALLED_AFTER) therefore commit without NOTIFY; their process queues the signal
// here once the write has returned, and one statement, in its own transaction, NOTIFYs everything
// queued, on the process's LISTEN connection (else the pool). While it runs, what arrives waits for
// the next one: one NOTIFY transaction in flight per process, whatever the number of sends, and
// none waits for a timer (an idle process sends at once).
//
// Each channel's entries travel newline-joined, packed into payloads under PostgreSQL's limit; the
// listener splits them (contracts/events.ts `eachEntry`). The same entry twice in one flush is sent
// once, as PostgreSQL folds the same payload within one transaction.
//
// A signal sent here is later than one sent by the commit itself, never earlier: whoever read before
// the commit is still woken after it. What it can lose: the process dying between the commit and
// the flush, or the flush failing (logged). Then no one is woken for that write: a held long-poll
// answers at its time limit and the widget's next poll reads it (its token lookup's last_sequence
// names it); an open inbox shows it at its next event or refresh.

/** PostgreSQL refuses a NOTIFY payload of this many bytes or more (its default build). */
export const NOTIFY_PAYLOAD_BYTES = 8000;

/** The entries joined by newlines (contracts/events.ts `eachEntry` splits them), in payloads under `limit` bytes. */
export function packPayloads(entries: string[], limit = NOTIFY_PAYLOAD_BYTES): string[] {
  const payloads: string[] = [];
  let payload = "";
  let bytes = 0;
  for (const entry of entries) {
    const size = Buffer.byteLength(entry);
    if (payload && bytes + 1 + size >= limit) {
      payloads.push(payload);
      payload = "";
    }
    bytes = payload ? bytes + 1 + size : size;
    payload = payload ? `${payload}\n${entry}` : entry;
  }
  if (payload) payloads.push(payload);
  return payloads;
}

const NOTIFY_ALL: PreparedStatement = {
  name: "notify_all",
  text: `SELECT count(pg_notify(channel, payload)) AS sent FROM unnest($1::text[], $2::text[]) AS t(channel, payload)`,
};

interface Queue {
  entries: Map<string, Set<string>>;
  flushing: Promise<void> | null;
}
// One per process (lib/core/process-registry.mjs), whichever copy of this module queued.
const queue = processSingleton<Queue>("coalesced notifies", () => ({ entries: new Map(), flushing: null }));

/** NOTIFYs `entry` on `channel` soon, with whatever else this process queued meanwhile. Call it after the write committed. */
export function notifyAfterCommit(channel: string, entry: string): void {
  let entries = queue.entries.get(channel);
  if (!entries) queue.entries.set(channel, (entries = new Set()));
  entries.add(entry);
  // The first entry of a turn starts a flush after the turn, so the sends answered in one turn share it.
  if (queue.flushing) return;
  queue.flushing = new Promise((resolve) => setImmediate(resolve)).then(flushAll);
  holdShutdownFor(queue.flushing); // a shutdown closes the database only after these are sent
}

/** Resolves once everything queued so far has been sent (tests, shutdown). */
export async function flushed(): Promise<void> {
  while (queue.flushing) await queue.flushing;
}

async function flushAll(): Promise<void> {
  while (queue.entries.size > 0) {
    const taken = queue.entries;
    queue.entries = new Map();
    const channels: string[] = [];
    const payloads: string[] = [];
    for (const [channel, entries] of taken) {
      for (const payload of packPayloads([...entries])) {
        channels.push(channel);
        payloads.push(payload);
      }
    }
    await send(channels, payloads).catch((error: unknown) => log.warn("realtime_notify_failed", { error, payloads: payloads.length }));
  }
  queue.flushing = null;
}

/**
 * On the process's LISTEN connection when it is up: under load every pooled connection is busy
 * with sends, and a NOTIFY waiting for one delayed every delivery (docs/performance.md). Else (or
 * if that connection fails under it) on the pool.
 */
async function send(channels: string[], payloads: string[]): Promise<void> {
  const listening = listenerConnection();
  if (listening) {
    // Silent for long (a partitioned network gives no error for a long time, and meanwhile nothing
    // reaches the listener either): dropped, which ends the query, and reconnected.
    const timer = setTimeout(() => listenerUnresponsive(listening), LISTENER_ANSWER_MS);
    try {
      await listening.query({ name: NOTIFY_ALL.name, text: NOTIFY_ALL.text, values: [channels, payloads] });
      return;
    } catch {
      // lost meanwhile (the listener reconnects on its own): these go by the pool, which has its own timeouts
    } finally {
      clearTimeout(timer);
    }
  }
  await queryPrepared(NOTIFY_ALL, [channels, payloads]);
}

// A NOTIFY takes a millisecond; a connection silent for this long is taken for lost.
const LISTENER_ANSWER_MS = 2_000;

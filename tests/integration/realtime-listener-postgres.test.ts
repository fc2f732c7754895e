import { afterAll, afterEach, describe, expect, test } from "vitest";
import { sqlExecutor } from "../../lib/db/client";
import { stopInboxListening } from "../../lib/realtime/inbox-signals";
import { ensureListening } from "../../lib/realtime/message-signals";
import { call } from "../support/api";
import { abortEventStreams, openEventStream, type EventStream } from "../support/event-stream";
import { createMember, openConversation, staffReply, visitor, type Started } from "../support/fixtures";
import { createStaff } from "../support/inbox";
import { requireService } from "../support/requires";

const onPostgres = await requireService("postgres");

// One realtime module (issue 24, item 3): a process holds ONE LISTEN connection, on the direct
// URL, for both consumers of the database's NOTIFYs — the widget's long-polls (parley_messages)
// and the inbox's event streams (parley_inbox) — and ONE reconnect policy: when that connection
// is lost, held long-polls look for themselves, the connection comes back, and inbox streams are
// told to `resync`.

afterEach(() => abortEventStreams());
afterAll(stopInboxListening);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The backends of this database (other than the asking one) that listen: the listener's connection
 * (which also sends the process's coalesced NOTIFYs, so its last statement may be one), or any
 * whose last statement was a LISTEN.
 */
async function listenBackends(): Promise<number[]> {
  const sql = await sqlExecutor();
  const { rows } = await sql.executeSql(
    `SELECT pid FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND (application_name = 'parley_listener' OR query ILIKE 'LISTEN%')`,
  );
  return rows.map((row: { pid: number }) => row.pid);
}

async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || performance.now() > deadline) return value;
    await sleep(50);
  }
}

const longPoll = (started: Started, query: string) => call("GET", `/api/v1/chat/visitor/messages${query}`, visitor(started));
const bodies = (response: { json: { result: { items: { body: string }[] } } }) => response.json.result.items.map((m) => m.body);

async function opened(cookie: string): Promise<EventStream> {
  const stream = await openEventStream(cookie);
  expect(stream.status).toBe(200);
  expect(await stream.ready()).toBe(true);
  return stream;
}

describe.runIf(onPostgres)("the realtime listener on PostgreSQL", () => {
  test("the long-polls and the inbox streams of a process share one LISTEN connection", async () => {
    const agent = await createStaff("agent", "Lena Listener");
    expect(await ensureListening()).toBe(true); // a long-poll's
    const stream = await opened(agent.cookie); // an inbox stream's
    expect(await listenBackends()).toHaveLength(1);

    const chat = await openConversation({ body: "heard by both" });
    expect(await stream.until(() => stream.text.includes(chat.conversationId), 5_000)).toBe(true);
    expect(await listenBackends()).toHaveLength(1);
  });

  test("after the LISTEN connection is killed, held long-polls are answered, the inbox resyncs, and both hear new rows again", { timeout: 30_000 }, async () => {
    const agent = await createStaff("agent", "Kim Killed");
    const stream = await opened(agent.cookie);
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await ensureListening();
    const [killed] = await listenBackends();
    expect(killed).toBeDefined();

    // A long-poll held across the loss: woken by it, it looks for itself, waits again, and the
    // reply sent after the connection came back answers it.
    const held = longPoll(started, "?cursor=1&wait=15");
    await sleep(300);
    const sql = await sqlExecutor();
    await sql.executeSql(`SELECT pg_terminate_backend($1)`, [killed]);

    expect(await stream.until(() => stream.events.some((event) => event.type === "resync"), 5_000)).toBe(true);
    const back = await eventually(listenBackends, (pids) => pids.length === 1 && pids[0] !== killed);
    expect(back).toHaveLength(1);
    expect(back[0]).not.toBe(killed);

    const replyAt = performance.now();
    await staffReply(started.conversationId, staff.id, "after the loss");
    const response = await held;
    expect(bodies(response)).toEqual(["after the loss"]);
    expect(performance.now() - replyAt).toBeLessThan(3_000); // woken, not the 2 s fallback poll at worst

    // A fresh long-poll and the inbox stream both hear the next rows.
    const [again] = await Promise.all([
      longPoll(started, "?cursor=2&wait=8"),
      sleep(300).then(() => staffReply(started.conversationId, staff.id, "and again")),
    ]);
    expect(bodies(again)).toEqual(["and again"]);
    const other = await openConversation({ body: "a new one" });
    expect(await stream.until(() => stream.text.includes(other.conversationId), 5_000)).toBe(true);
    expect(await listenBackends()).toHaveLength(1);
  });
});

import { afterEach, describe, expect, test, vi } from "vitest";
import type { PreparedStatement } from "../../lib/db/client";
import { setPresence } from "../../lib/conversations/presence";
import { ensureListening, presenceQuietSince, signalsRecordedSince, stopListening, subscribe } from "../../lib/realtime/message-signals";
import { api, call } from "../support/api";
import { createMember, openConversation, staffReply, visitor, type Started } from "../support/fixtures";
import { requireService } from "../support/requires";

const onPostgres = await requireService("postgres");

// What a long-poll does before its first wait. Issue 9, item 5: on a fresh instance the first
// long-poll's read ran before the LISTEN connection existed, so a reply committed between that
// read and the LISTEN was never signalled and the poll waited its full `wait`. And since a
// long-poll with nothing new skips that read (lib/conversations/visitor-messages.ts), a reply committed
// between its token lookup and its subscription must still answer it at once.
//
// The real queryPrepared runs every statement (every visitor request's SQL goes through it); the
// wrapper below only notes each statement's name and can commit a reply right after a given
// statement, before that statement's rows reach the request.

const statements: string[] = [];
let barrier: { after: string; action: () => Promise<void> } | null = null;

vi.mock("../../lib/db/client", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../lib/db/client")>();
  return {
    ...real,
    queryPrepared: async <Row, Out>(statement: PreparedStatement, values: unknown[], shape?: (rows: Row[]) => Out): Promise<Out | Row[]> => {
      statements.push(statement.name);
      const rows = await real.queryPrepared<Row>(statement, values);
      if (barrier?.after === statement.name) {
        const { action } = barrier;
        barrier = null;
        await action();
      }
      return shape ? shape(rows) : rows;
    },
  };
});

const longPoll = (started: Started, query: string) => call("GET", `/api/v1/chat/visitor/messages${query}`, visitor(started));
const bodies = (response: { json: { result: { items: { body: string }[] } } }) => response.json.result.items.map((m) => m.body);

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const startedAt = Date.now();
  const value = await work;
  return { value, ms: Date.now() - startedAt };
}

describe("the first long-poll of a fresh instance", () => {
  // On PGlite there is no LISTEN connection, and a poll with nothing new does not read (below).
  test.runIf(onPostgres)("a reply committed right after the poll's first read answers it at once", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await stopListening(); // a process that has never listened
    barrier = { after: "public_messages_after", action: () => staffReply(started.conversationId, staff.id, "just in time") };
    const { value, ms } = await timed(longPoll(started, "?cursor=1&wait=8"));
    expect(barrier).toBeNull(); // the barrier ran
    expect(value.status).toBe(200);
    expect(bodies(value)).toEqual(["just in time"]);
    expect(ms).toBeLessThan(4_000); // not held for the 8 s asked
  });
});

describe("a long-poll with nothing new", () => {
  test("runs the token lookup alone, and answers the empty page when the time is up", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    await ensureListening(); // on PostgreSQL, the LISTEN connection a running instance has
    statements.length = 0;
    const response = await longPoll(started, "?cursor=1&wait=1");
    expect(response.json.result).toEqual({ items: [], next_cursor: 1, has_more: false });
    expect(statements).toEqual(["find_visitor_session"]);
  });

  test("reads once it is woken, and answers the reply", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await ensureListening();
    statements.length = 0;
    const [response] = await Promise.all([
      longPoll(started, "?cursor=1&wait=10"),
      new Promise((resolve) => setTimeout(resolve, 300)).then(() => staffReply(started.conversationId, staff.id, "here I am")),
    ]);
    expect(bodies(response)).toEqual(["here I am"]);
    const visitorReads = statements.filter((name) => name === "find_visitor_session" || name === "public_messages_after");
    expect(visitorReads).toEqual(["find_visitor_session", "public_messages_after"]);
  });

  test("a reply committed between its token lookup and its subscription answers it at once", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await ensureListening();
    barrier = {
      after: "find_visitor_session",
      action: async () => {
        // Its wake-up reaches this process before the poll subscribes (on PostgreSQL the NOTIFY
        // comes over the LISTEN connection a moment after the commit), so it wakes nobody there.
        const heard = subscribe(started.conversationId);
        await staffReply(started.conversationId, staff.id, "just in time");
        expect(await heard.next(2_000)).toBe("message");
        heard.close();
      },
    };
    const { value, ms } = await timed(longPoll(started, "?cursor=1&wait=8"));
    expect(barrier).toBeNull();
    expect(bodies(value)).toEqual(["just in time"]);
    expect(ms).toBeLessThan(4_000); // not held for the 8 s asked
  });

  test.runIf(onPostgres)("a reply whose NOTIFY came before the LISTEN connection was made answers it at once", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await stopListening();
    barrier = {
      after: "find_visitor_session",
      action: async () => {
        await staffReply(started.conversationId, staff.id, "unheard"); // nobody listens: its NOTIFY is lost
        await ensureListening(); // as another request would, before this poll subscribes
      },
    };
    const { value, ms } = await timed(longPoll(started, "?cursor=1&wait=8"));
    expect(barrier).toBeNull();
    expect(bodies(value)).toEqual(["unheard"]);
    expect(ms).toBeLessThan(4_000);
  });
});

describe("a long-poll with ?presence= and nothing new", () => {
  // Whether a presence read can be skipped looks back PRESENCE_TTL_MS and a margin: on PostgreSQL
  // the LISTEN connection must have been up that long. A running instance's has; here the clock
  // the signals are timed by is moved 20 s on instead of waiting.
  afterEach(() => vi.restoreAllMocks());
  const later = () => {
    const now = performance.now.bind(performance);
    vi.spyOn(performance, "now").mockImplementation(() => now() + 20_000);
  };

  test("runs the token lookup alone, and answers no presence when the time is up", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    await ensureListening();
    later();
    statements.length = 0;
    const response = await longPoll(started, "?cursor=1&wait=1&presence=0");
    expect(response.json.result).toEqual({ items: [], next_cursor: 1, has_more: false, presence: [] });
    expect(statements).toEqual(["find_visitor_session"]);
  });

  test("a process that has not been recording for the whole lookback cannot tell: it reads", () => {
    // An embedded process just restarted: entries written by the one before may be live.
    const recordingSince = signalsRecordedSince();
    expect(presenceQuietSince("any-conversation", recordingSince - 1)).toBe(false);
    if (!onPostgres) expect(presenceQuietSince("any-conversation", recordingSince)).toBe(true);
  });

  test("the visitor's own typing does not wake it: no read", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const { visitor_id: visitorId } = (await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true })).json.result;
    await ensureListening();
    later();
    statements.length = 0;
    const [response] = await Promise.all([
      longPoll(started, "?cursor=1&wait=1&presence=0"),
      new Promise((resolve) => setTimeout(resolve, 200)).then(() =>
        setPresence({ conversationId: started.conversationId, actorId: visitorId, authorType: "visitor" }, true),
      ),
    ]);
    expect(response.json.result.presence).toEqual([]);
    expect(statements).toEqual(["find_visitor_session", "upsert_presence_notify"]);
  });

  test("reads presence once staff typing wakes it, and answers the entry", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await ensureListening();
    later();
    statements.length = 0;
    const [response] = await Promise.all([
      longPoll(started, "?cursor=1&wait=10&presence=0"),
      new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
        api.post(`/api/v1/admin/conversations/${started.conversationId}/presence`, { admin: true, body: { actor_id: staff.id, typing: true } }),
      ),
    ]);
    expect(response.json.result.presence).toMatchObject([{ actor_id: staff.id, typing: true }]);
    const visitorReads = statements.filter((name) => name !== "upsert_presence_notify");
    expect(visitorReads).toEqual(["find_visitor_session", "live_presence_named"]);
  });

  test("a poll starting within an entry's life reads presence (the staff wrote just now)", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    await ensureListening();
    later();
    await api.post(`/api/v1/admin/conversations/${started.conversationId}/presence`, { admin: true, body: { actor_id: staff.id, typing: true } });
    await new Promise((resolve) => setTimeout(resolve, 300)); // on PostgreSQL, its NOTIFY has come back
    statements.length = 0;
    const response = await longPoll(started, "?cursor=1&wait=10&presence=0");
    expect(response.json.result.presence).toMatchObject([{ actor_id: staff.id, typing: true }]);
    expect(statements).toEqual(["find_visitor_session", "live_presence_named"]);
  });
});

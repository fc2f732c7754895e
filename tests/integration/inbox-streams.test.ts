import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "../../lib/db/client";
import { stopInboxListening } from "../../lib/realtime/inbox-signals";
import { api } from "../support/api";
import { abortEventStreams, openEventStream, type EventStream } from "../support/event-stream";
import { expectError } from "../support/expectations";
import { openConversation } from "../support/fixtures";
import { as, codeOf, cookieFrom, createStaff, INBOX_ORIGIN, inviteUrl, PASSWORD, type Staff } from "../support/inbox";
import { assertDocumentedAnswer } from "../support/openapi-contract";

// The inbox's live event stream lives no longer than its session (issue #23, items 2 and 3):
// sign-out and deactivation end it at once, a heartbeat that finds the session gone ends it without
// marking the member active, and one session or member holds at most 10 streams at a time.
// Whatever else takes a member's sign-in away or changes it (the operator clearing or changing
// the email, an owner changing it, an invite accepted by email) ends their sessions too (16a-16b).

const HEARTBEAT_MS = 15_000;
const MAX_STREAMS = 10;

let owner: Staff;
let colleague: Staff;

beforeAll(async () => {
  owner = await createStaff("owner", "Olga Owner");
  colleague = await createStaff("agent", "Cleo Colleague");
});

afterEach(() => {
  vi.useRealTimers();
  abortEventStreams();
});
afterAll(stopInboxListening);

/** A second session of the same member (another browser). */
async function signIn(staff: Staff): Promise<string> {
  const response = await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: staff.email, password: PASSWORD } });
  expect(response.status).toBe(200);
  return cookieFrom(response.headers.get("set-cookie"));
}

const signOut = async (cookie: string) => expect((await api.delete("/api/v1/inbox/session", as(null, { headers: { Cookie: cookie } }))).status).toBe(200);

async function sessionIds(memberId: string): Promise<string[]> {
  return (await (await db()).staffSession.findMany({ where: { memberId }, select: { id: true } })).map((session) => session.id);
}

async function opened(cookie: string): Promise<EventStream> {
  const stream = await openEventStream(cookie);
  expect(stream.status).toBe(200);
  expect(await stream.ready()).toBe(true);
  return stream;
}

/** Only what the page may see: `ready` and ids of conversations, never a session's or member's. */
function expectOnlyInboxEvents(stream: EventStream, secrets: string[]): void {
  for (const event of stream.events) expect(["ready", "message", "conversation", "typing", "ticket", "resync"]).toContain(event.type);
  for (const secret of secrets) expect(stream.text).not.toContain(secret);
}

describe("a stream ends with its session", () => {
  test("sign-out ends that session's open stream at once; the member's other session and other members keep theirs", async () => {
    const agent = await createStaff("agent", "Sam Signout");
    const otherBrowser = await signIn(agent);
    const [signingOut, stays, colleagues] = [await opened(agent.cookie), await opened(otherBrowser), await opened(colleague.cookie)];
    const sessions = await sessionIds(agent.id);

    await signOut(agent.cookie);
    expect(await signingOut.ended()).toBe(true);
    const chat = await openConversation({ body: "after the sign-out" });
    for (const stream of [stays, colleagues]) {
      expect(await stream.until(() => stream.text.includes(chat.conversationId))).toBe(true);
      expect(stream.done).toBe(false);
      expectOnlyInboxEvents(stream, [...sessions, agent.id]);
    }
    expect(signingOut.text).not.toContain(chat.conversationId);
  });

  test("deactivating a member ends the streams of every session of theirs; the owner's stays open", async () => {
    const agent = await createStaff("agent", "Dee Deactivated");
    const streams = [await opened(agent.cookie), await opened(await signIn(agent))];
    const ownersStream = await opened(owner.cookie);

    expect((await api.post(`/api/v1/inbox/members/${agent.id}/deactivate`, as(owner))).status).toBe(200);
    for (const stream of streams) expect(await stream.ended()).toBe(true);
    expect(await sessionIds(agent.id)).toEqual([]);
    const chat = await openConversation({ body: "after the deactivation" });
    expect(await ownersStream.until(() => ownersStream.text.includes(chat.conversationId))).toBe(true);
    expect(ownersStream.done).toBe(false);
    expectOnlyInboxEvents(ownersStream, [agent.id]);
  });

  test("accepting a new invite (a password reset) ends the streams of the member's earlier sessions", async () => {
    const agent = await createStaff("agent", "Rita Reset");
    const before = await opened(agent.cookie);
    const url = await inviteUrl(agent.id, agent.email, "agent");
    const accepted = await api.post("/api/v1/inbox/invites/accept", { origin: INBOX_ORIGIN, body: { code: codeOf(url), password: `${PASSWORD} 2` } });
    expect(accepted.status).toBe(200);
    expect(await before.ended()).toBe(true);
    await opened(cookieFrom(accepted.headers.get("set-cookie")));
  });
});

describe("a changed or removed sign-in ends the member's sessions (reliability 16a, 16b)", () => {
  const adminPatch = (memberId: string, body: unknown) => api.patch(`/api/v1/admin/members/${memberId}`, { admin: true, body });
  const expectSignedOut = async (cookie: string) =>
    expectError(await api.get("/api/v1/inbox/session", as(null, { headers: { Cookie: cookie } })), 401, "unauthorized");

  test("the operator removing a member's email ends every session and stream of theirs; setting it again brings none back", async () => {
    const agent = await createStaff("agent", "Nell Noemail");
    const otherBrowser = await signIn(agent);
    const streams = [await opened(agent.cookie), await opened(otherBrowser)];

    expect((await adminPatch(agent.id, { email: null })).status).toBe(200);
    for (const stream of streams) expect(await stream.ended()).toBe(true);
    expect(await sessionIds(agent.id)).toEqual([]);

    expect((await adminPatch(agent.id, { email: agent.email })).status).toBe(200);
    for (const cookie of [agent.cookie, otherBrowser]) await expectSignedOut(cookie);
    await opened(await signIn(agent)); // the password still signs in, as a new session
  });

  test("a changed email (operator API or an owner in the inbox) ends the member's sessions; the new email signs in; other changes end nothing", async () => {
    const agent = await createStaff("agent", "Chad Changed");
    const stream = await opened(agent.cookie);
    const moved = `moved-${agent.email}`;
    expect((await adminPatch(agent.id, { email: moved.toUpperCase() })).status).toBe(200);
    expect(await stream.ended()).toBe(true);
    await expectSignedOut(agent.cookie);

    const cookie = await signIn({ ...agent, email: moved });
    const kept = await opened(cookie);
    // The same email again (in any case), a name or notify change: the session stays.
    expect((await adminPatch(agent.id, { email: moved.toUpperCase(), name: "Chad C.", notify: false })).status).toBe(200);
    expect((await api.patch(`/api/v1/inbox/members/${agent.id}`, as(owner, { body: { email: moved, name: "Chad" } }))).status).toBe(200);
    expect((await api.get("/api/v1/inbox/session", as(null, { headers: { Cookie: cookie } }))).status).toBe(200);
    expect(kept.done).toBe(false);

    expect((await api.patch(`/api/v1/inbox/members/${agent.id}`, as(owner, { body: { email: agent.email } }))).status).toBe(200);
    expect(await kept.ended()).toBe(true);
    await expectSignedOut(cookie);
    await signIn(agent);
  });

  test("an invite accepted by email for an existing member (an invite without a member id) ends the member's earlier sessions", async () => {
    const agent = await createStaff("agent", "Ivy Invited");
    // Invited while nobody held the email; the member gets that email only afterwards, and signs in with it.
    const email = `later-${agent.email}`;
    const invite = await api.post("/api/v1/inbox/members/invites", as(owner, { body: { email, name: "Ivy Invited", role: "agent" } }));
    expect(invite.status).toBe(201);
    expect((await adminPatch(agent.id, { email })).status).toBe(200);
    const cookie = await signIn({ ...agent, email });
    const before = await opened(cookie);

    const accepted = await api.post("/api/v1/inbox/invites/accept", {
      origin: INBOX_ORIGIN,
      body: { code: codeOf(invite.json.result.invite_url), password: `${PASSWORD} 2` },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.json.result.member_id).toBe(agent.id);
    expect(await before.ended()).toBe(true);
    await expectSignedOut(cookie);
    expect(await sessionIds(agent.id)).toHaveLength(1); // the one the invite just opened
    await opened(cookieFrom(accepted.headers.get("set-cookie")));
  });
});

describe("the heartbeat (every 15 s) re-checks the session", () => {
  // The real route and the real 15 s interval, on a fake clock: setInterval and Date only (the
  // database and these waits keep real time). Date moves too, past the 10 s between two writes of
  // members.inbox_active_at.
  const fakeClock = () => vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
  const activeAt = async (memberId: string) => (await (await db()).member.findUniqueOrThrow({ where: { id: memberId } })).inboxActiveAt;
  const forgetActivity = async (memberId: string) => (await db()).member.update({ where: { id: memberId }, data: { inboxActiveAt: null } });
  const settle = (ms = 500) => new Promise((resolve) => setTimeout(resolve, ms));

  test("a heartbeat after sign-out does not mark the member active", async () => {
    const agent = await createStaff("agent", "Hal Heartbeat");
    fakeClock();
    const stream = await opened(agent.cookie);
    await signOut(agent.cookie);
    await forgetActivity(agent.id);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    await settle();
    expect(await activeAt(agent.id)).toBeNull();
    expect(await stream.ended()).toBe(true);
  });

  test("while the session lives it marks the member active; once the session is gone without a signal (expired), the next heartbeat ends the stream and marks nothing", async () => {
    const agent = await createStaff("agent", "Exa Expired");
    fakeClock();
    const stream = await opened(agent.cookie);
    await forgetActivity(agent.id);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(await stream.until(() => stream.text.includes(": keep-alive"))).toBe(true);
    for (const deadline = performance.now() + 3_000; (await activeAt(agent.id)) === null; await settle(50)) {
      expect(performance.now()).toBeLessThan(deadline);
    }

    await (await db()).staffSession.updateMany({ where: { memberId: agent.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await forgetActivity(agent.id);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(await stream.ended()).toBe(true);
    await settle();
    expect(await activeAt(agent.id)).toBeNull();
  });
});

describe("at most 10 open streams per session and per member (in each process)", () => {
  async function expectRefused(stream: EventStream): Promise<void> {
    expect(stream.status).toBe(429);
    const json = await stream.response.json();
    expect(json).toMatchObject({ success: false, result: { code: "rate_limited" } });
    expect(Number(stream.response.headers.get("retry-after"))).toBeGreaterThan(0);
    assertDocumentedAnswer("GET", "/api/v1/inbox/events", 429, json);
  }

  test("the 11th stream of one session is 429 rate_limited; a stream closed in any way frees its place", async () => {
    const agent = await createStaff("agent", "Tab Hoarder");
    const streams: EventStream[] = [];
    for (let i = 0; i < MAX_STREAMS; i++) streams.push(await opened(agent.cookie));
    await expectRefused(await openEventStream(agent.cookie));

    streams[0]!.abort(); // the browser tab closed
    expect(await streams[0]!.ended()).toBe(true);
    streams[0] = await opened(agent.cookie);
    await expectRefused(await openEventStream(agent.cookie));

    await streams[1]!.cancel(); // the body was cancelled
    streams[1] = await opened(agent.cookie);
    await expectRefused(await openEventStream(agent.cookie));

    // Ended by the server (sign-out): a new session of the member opens ten again.
    await signOut(agent.cookie);
    for (const stream of streams) expect(await stream.ended()).toBe(true);
    const again = await signIn(agent);
    for (let i = 0; i < MAX_STREAMS; i++) await opened(again);
    await expectRefused(await openEventStream(again));
  });

  test("the cap holds per member across sessions, and other members are not affected", async () => {
    const agent = await createStaff("agent", "Many Browsers");
    const first: EventStream[] = [];
    for (let i = 0; i < MAX_STREAMS / 2; i++) first.push(await opened(agent.cookie));
    const second = await signIn(agent);
    for (let i = 0; i < MAX_STREAMS / 2; i++) await opened(second);
    await expectRefused(await openEventStream(second));
    await expectRefused(await openEventStream(await signIn(agent)));
    await opened(colleague.cookie);

    first[0]!.abort();
    expect(await first[0]!.ended()).toBe(true);
    await opened(second);
  });
});

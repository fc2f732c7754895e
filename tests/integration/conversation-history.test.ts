import { createHmac } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createMember, createSite, ORIGIN, OTHER_ORIGIN, startConversation } from "../support/fixtures";
import { rowCounts } from "../support/row-counts";

// Returning visitors (decisions.md, round 3): POST /widget/{siteID}/history lists a verified
// user's conversations, newest first, each with a fresh token bound to it and the asking Origin.

const hmac = (secret: string, userId: string) => createHmac("sha256", secret).update(userId).digest("hex");
const history = (siteId: string, body: unknown, origin: string | null = ORIGIN) =>
  api.post(`/api/v1/chat/widget/${siteId}/history`, { origin, body });

async function siteWithSecret() {
  const site = await createSite();
  const created = await api.post(`/api/v1/admin/sites/${site.id}/identity-secret`, { admin: true });
  expect(created.status).toBe(201);
  return { site, secret: created.json.result.identity_secret as string };
}

/** A conversation of `userId`, verified, optionally with a first message. */
const startAs = (siteId: string, secret: string, userId: string, body?: string, origin = ORIGIN) =>
  startConversation(siteId, { user_id: userId, user_hash: hmac(secret, userId), ...(body ? { body, client_id: `c-${body.length}-${body.slice(0, 20)}` } : {}) }, origin);

const staffSays = (conversationId: string, authorId: string, body: string, kind = "message") =>
  api.post(`/api/v1/admin/conversations/${conversationId}/messages`, { admin: true, body: { author_id: authorId, body, kind } });

// The file's database is made and migrated on first use: in the hook, not in the first test's time.
beforeAll(() => rowCounts());

describe("POST /api/v1/chat/widget/{siteID}/history", () => {
  test("lists only the verified user's conversations on this site, with a working token each", async () => {
    const { site, secret } = await siteWithSecret();
    const mine = await startAs(site.id, secret, "u1", "hello there");
    await startAs(site.id, secret, "u2", "someone else");
    await startConversation(site.id, { body: "anonymous", client_id: "a1" });
    const elsewhere = await siteWithSecret();
    await startAs(elsewhere.site.id, elsewhere.secret, "u1", "other site");

    const response = await history(site.id, { user_id: "u1", user_hash: hmac(secret, "u1") });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const [item, ...rest] = response.json.result.conversations;
    expect(rest).toEqual([]);
    expect(item).toMatchObject({
      conversation_id: mine.conversationId,
      status: "open",
      last_message: { body: "hello there", author_type: "visitor", event: null, has_attachments: false },
      expires_in_seconds: 86400,
    });
    expect(item.visitor_token).not.toBe(mine.token);
    expect(item.updated_at).toBe(item.last_message.created_at);
    expect(item.last_said).toEqual(item.last_message);

    // The new token reads and writes this conversation, and the start's token still works.
    const read = await api.get("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: item.visitor_token });
    expect(read.json.result.items.map((m: { body: string }) => m.body)).toEqual(["hello there"]);
    const sent = await api.post("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: item.visitor_token, body: { body: "back again", client_id: "b1" } });
    expect(sent.status).toBe(201);
    expect(sent.json.result.message.conversation_id).toBe(mine.conversationId);
    expect((await api.get("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: mine.token })).json.result.items).toHaveLength(2);
  });

  test("each token is bound to the Origin that asked: another allowed site's page gets 403 origin_mismatch", async () => {
    const { site, secret } = await siteWithSecret();
    const started = await startAs(site.id, secret, "u1", "from the shop");
    const response = await history(site.id, { user_id: "u1", user_hash: hmac(secret, "u1") }, OTHER_ORIGIN);
    const [item] = response.json.result.conversations;
    expect(item.conversation_id).toBe(started.conversationId);
    expect((await api.get("/api/v1/chat/visitor/messages", { origin: OTHER_ORIGIN, token: item.visitor_token })).status).toBe(200);
    expectError(await api.get("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: item.visitor_token }), 403, "origin_mismatch");
  });

  test("at most 20, newest activity first", async () => {
    const { site, secret } = await siteWithSecret();
    const started = [];
    for (let i = 0; i < 22; i++) started.push(await startAs(site.id, secret, "u1", `message ${i}`));
    // The oldest conversation gets the newest message: it comes first.
    const member = await createMember({ picture: false });
    expect((await staffSays(started[0]!.conversationId, member.id, "a reply")).status).toBe(201);

    const { conversations } = (await history(site.id, { user_id: "u1", user_hash: hmac(secret, "u1") })).json.result;
    expect(conversations).toHaveLength(20);
    expect(conversations[0]).toMatchObject({ conversation_id: started[0]!.conversationId, last_message: { body: "a reply", author_type: "staff" } });
    const times = conversations.map((c: { updated_at: string }) => Date.parse(c.updated_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const listed = new Set(conversations.map((c: { conversation_id: string }) => c.conversation_id));
    expect(listed.has(started[1]!.conversationId) && listed.has(started[2]!.conversationId)).toBe(false); // the two oldest left out
    expect(new Set(conversations.map((c: { visitor_token: string }) => c.visitor_token)).size).toBe(20);
  });

  test("last_message is public: a later note never shows; a closed conversation says closed", async () => {
    const { site, secret } = await siteWithSecret();
    const started = await startAs(site.id, secret, "u1", "question");
    const member = await createMember({ picture: false });
    expect((await staffSays(started.conversationId, member.id, "public answer")).status).toBe(201);
    expect((await staffSays(started.conversationId, member.id, "secret staff note", "note")).status).toBe(201);
    const first = (await history(site.id, { user_id: "u1", user_hash: hmac(secret, "u1") })).json;
    expect(first.result.conversations[0]).toMatchObject({ status: "open", last_message: { body: "public answer", author_type: "staff" } });
    expect(JSON.stringify(first)).not.toContain("secret staff note");

    expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true })).status).toBe(200);
    const closed = (await history(site.id, { user_id: "u1", user_hash: hmac(secret, "u1") })).json.result.conversations[0];
    expect(closed).toMatchObject({ status: "closed", last_message: { author_type: "system", event: "conversation_closed" } });
    // Issue 39: the list's text for a closed conversation is what was said, not the closed line.
    expect(closed.last_said).toMatchObject({ body: "public answer", author_type: "staff", event: null, has_attachments: false });
    expect(Date.parse(closed.last_said.created_at)).toBeLessThanOrEqual(Date.parse(closed.last_message.created_at));
  });

  test("a long last message is cut to 200 characters; a conversation without messages has none", async () => {
    const { site, secret } = await siteWithSecret();
    const long = "x".repeat(199) + "😀" + "y".repeat(100);
    await startAs(site.id, secret, "u1", long);
    const quiet = await startAs(site.id, secret, "u1");
    const { conversations } = (await history(site.id, { user_id: "u1", user_hash: hmac(secret, "u1") })).json.result;
    const empty = conversations.find((c: { conversation_id: string }) => c.conversation_id === quiet.conversationId);
    expect(empty.last_message).toBeNull();
    expect(empty.last_said).toBeNull();
    const cut = conversations.find((c: { conversation_id: string }) => c.conversation_id !== quiet.conversationId);
    expect(cut.last_message.body).toBe("x".repeat(199)); // never half of a surrogate pair
    expect(cut.last_said.body).toBe("x".repeat(199));
  });

  test("a verified user without conversations gets an empty list and no tokens", async () => {
    const { site, secret } = await siteWithSecret();
    const before = await rowCounts();
    const response = await history(site.id, { user_id: "nobody", user_hash: hmac(secret, "nobody") });
    expect(response.json.result).toEqual({ conversations: [] });
    expect(await rowCounts()).toEqual(before);
  });

  test.each([
    ["a wrong hash", (secret: string) => ({ user_id: "u1", user_hash: hmac(secret, "u2") })],
    ["a hash under another secret", () => ({ user_id: "u1", user_hash: hmac("ids_other", "u1") })],
    ["a hash that is not hex", () => ({ user_id: "u1", user_hash: "z".repeat(64) })],
  ])("%s → 403 identity_invalid, no token issued", async (_name, body) => {
    const { site, secret } = await siteWithSecret();
    await startAs(site.id, secret, "u1", "hi");
    const before = await rowCounts();
    const response = await history(site.id, body(secret));
    expectError(response, 403, "identity_invalid");
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(JSON.stringify(response.json)).not.toContain("vt_");
    expect(await rowCounts()).toEqual(before);
  });

  test("a site without an identity secret cannot verify anyone: 403 identity_invalid, as on a start", async () => {
    const site = await createSite();
    expectError(await history(site.id, { user_id: "u1", user_hash: "a".repeat(64) }), 403, "identity_invalid");
  });

  test.each([
    ["no body fields", {}, "user_id"],
    ["no user_hash", { user_id: "u1" }, "user_hash"],
    ["no user_id", { user_hash: "a".repeat(64) }, "user_id"],
    ["a user_id that is not a string", { user_id: 5, user_hash: "a".repeat(64) }, "user_id"],
    ["a user_id over 100 characters", { user_id: "u".repeat(101), user_hash: "a".repeat(64) }, "user_id"],
    ["a user_hash over 128 characters", { user_id: "u1", user_hash: "a".repeat(129) }, "user_hash"],
    ["an unknown field", { user_id: "u1", user_hash: "a".repeat(64), visitor_id: "v" }, ""],
  ])("%s → 400 invalid_request naming the field", async (_name, body, field) => {
    const { site } = await siteWithSecret();
    const response = await history(site.id, body);
    expectError(response, 400, "invalid_request");
    expect(JSON.stringify(response.json.result.fields)).toContain(field);
  });

  test("bad JSON is 400 invalid_request", async () => {
    const { site } = await siteWithSecret();
    const response = await api.post(`/api/v1/chat/widget/${site.id}/history`, { origin: ORIGIN, rawBody: "{not json" });
    expectError(response, 400, "invalid_request");
  });

  test("a foreign, missing or null Origin is 403 origin_not_allowed, unreadable by that page; preflight too", async () => {
    const { site, secret } = await siteWithSecret();
    await startAs(site.id, secret, "u1", "hi");
    const body = { user_id: "u1", user_hash: hmac(secret, "u1") };
    const before = await rowCounts();
    for (const origin of ["https://evil.example", null, "null"]) {
      const response = await history(site.id, body, origin);
      expectError(response, 403, "origin_not_allowed");
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      expect(JSON.stringify(response.json)).not.toContain("vt_");
    }
    expect(await rowCounts()).toEqual(before);
    const preflight = await api.options(`/api/v1/chat/widget/${site.id}/history`, { origin: "https://evil.example" });
    expectError(preflight, 403, "origin_not_allowed");
    const allowed = await api.options(`/api/v1/chat/widget/${site.id}/history`, { origin: ORIGIN });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });

  test("an unknown site is 404 site_not_found; GET is 404 not_found", async () => {
    expectError(await history("no-such-site", { user_id: "u1", user_hash: "a".repeat(64) }), 404, "site_not_found");
    const { site } = await siteWithSecret();
    expectError(await api.get(`/api/v1/chat/widget/${site.id}/history`, { origin: ORIGIN }), 404, "not_found");
  });
});

import { describe, expect, test } from "vitest";
import { api } from "../support/api";
import { createMember, createSite, openConversation, ORIGIN, PNG_BASE64, staffReply } from "../support/fixtures";
import { expectError } from "../support/expectations";
import { rowCounts } from "../support/row-counts";

describe("operator authentication", () => {
  test.each([
    ["no token", undefined],
    ["a wrong token", "wrong-token-0123456789"],
  ])("%s → 401 unauthorized, nothing created", async (_name, admin) => {
    const before = await rowCounts();
    const response = await api.post("/api/v1/admin/sites", { admin, body: { id: "x", origins: [] } });
    expectError(response, 401, "unauthorized");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(await rowCounts()).toEqual(before);
  });
});

describe("sites", () => {
  test("creating a site stores canonical origins and creates its inbox", async () => {
    const response = await api.post("/api/v1/admin/sites", {
      admin: true,
      body: { id: "acme", name: "Acme", origins: ["https://Shop.Example:443/", "http://localhost:3000"], daily_allowance: 40 },
    });
    expect(response.status).toBe(201);
    expect(response.json.result).toMatchObject({
      id: "acme",
      name: "Acme",
      origins: ["https://shop.example", "http://localhost:3000"],
      offline: false,
      daily_allowance: 40,
    });
    expect(response.json.result.inbox_id).toEqual(expect.any(String));
  });

  test("a duplicate id is 409 already_exists", async () => {
    const site = await createSite();
    expectError(await api.post("/api/v1/admin/sites", { admin: true, body: { id: site.id, origins: [] } }), 409, "already_exists");
  });

  test.each([
    ["a path", "https://shop.example/shop"],
    ["a wildcard", "https://*.shop.example"],
    ["another scheme", "ftp://shop.example"],
    ["not a URL", "shop.example"],
  ])("an origin with %s is 400", async (_name, origin) => {
    const before = await rowCounts();
    expectError(await api.post("/api/v1/admin/sites", { admin: true, body: { id: "bad-origin", origins: [origin] } }), 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
  });

  test("PATCH changes origins, offline and the allowance", async () => {
    const site = await createSite();
    const response = await api.patch(`/api/v1/admin/sites/${site.id}`, {
      admin: true,
      body: { origins: ["https://new.example"], offline: true, daily_allowance: 7 },
    });
    expect(response.status).toBe(200);
    expect(response.json.result).toMatchObject({ origins: ["https://new.example"], offline: true, daily_allowance: 7 });
  });

  test("PATCH of an unknown site is 404 site_not_found", async () => {
    expectError(await api.patch("/api/v1/admin/sites/nope", { admin: true, body: { offline: true } }), 404, "site_not_found");
  });
});

describe("members", () => {
  test("a member is created with a picture and its tag", async () => {
    const response = await api.post("/api/v1/admin/members", {
      admin: true,
      body: { id: "grace", name: "  Grace  ", avatar: { content_type: "image/png", bytes: PNG_BASE64 } },
    });
    expect(response.status).toBe(201);
    expect(response.json.result).toMatchObject({ id: "grace", name: "Grace", avatar: { content_type: "image/png" } });
  });

  test.each([
    ["an SVG", { content_type: "image/svg+xml", bytes: Buffer.from("<svg onload=alert(1)>").toString("base64") }],
    ["HTML labelled as PNG", { content_type: "image/png", bytes: Buffer.from("<html><script>").toString("base64") }],
    ["bytes that are not base64", { content_type: "image/png", bytes: "not base64!!" }],
  ])("%s is refused with 400", async (_name, avatar) => {
    const before = await rowCounts();
    expectError(await api.post("/api/v1/admin/members", { admin: true, body: { id: "bad-pic", name: "X", avatar } }), 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
  });

  test("PATCH of an unknown member is 404", async () => {
    expectError(await api.patch("/api/v1/admin/members/nobody", { admin: true, body: { name: "X" } }), 404, "member_not_found");
  });
});

describe("conversations", () => {
  test("list by site, and one conversation with every message, notes included", async () => {
    const started = await openConversation({ name: "Vic", email: "vic@example.com", body: "hi", client_id: "a" });
    const staff = await createMember();
    await staffReply(started.conversationId, staff.id, "a note", "note");
    const listed = await api.get(`/api/v1/admin/conversations?site=${started.siteId}`, { admin: true });
    expect(listed.status).toBe(200);
    expect(listed.json.result).toMatchObject([
      { id: started.conversationId, status: "open", origin: ORIGIN, visitor_name: "Vic", visitor_email: "vic@example.com" },
    ]);
    const detail = await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true });
    expect(detail.json.result.messages.map((m: { kind: string; body: string }) => [m.kind, m.body])).toEqual([
      ["message", "hi"],
      ["note", "a note"],
    ]);
  });

  test("listing needs a known site", async () => {
    expectError(await api.get("/api/v1/admin/conversations", { admin: true }), 400, "invalid_request");
    expectError(await api.get("/api/v1/admin/conversations?site=nope", { admin: true }), 404, "site_not_found");
  });

  test("a staff message needs a known author and conversation", async () => {
    const started = await openConversation();
    const staff = await createMember();
    const post = (id: string, authorId: string) =>
      api.post(`/api/v1/admin/conversations/${id}/messages`, { admin: true, body: { author_id: authorId, body: "x" } });
    expectError(await post(started.conversationId, "nobody"), 404, "member_not_found");
    expectError(await post("no-such-conversation", staff.id), 404, "conversation_not_found");
    expectError(await api.get("/api/v1/admin/conversations/no-such-conversation", { admin: true }), 404, "conversation_not_found");
  });

  test("closing is idempotent and reported", async () => {
    const started = await openConversation();
    const first = await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true });
    const second = await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.json.result).toMatchObject({ status: "closed", closed_at: first.json.result.closed_at });
  });
});

describe("round 2 operator additions", () => {
  test("GET /sites and GET /members list everything, members with email, notify and role", async () => {
    const site = await createSite();
    const created = await api.post("/api/v1/admin/members", { admin: true, body: { id: "mailer", name: "Mailer", email: "Mailer@Team.Example", notify: false } });
    expect(created.status).toBe(201);
    expect(created.json.result).toMatchObject({ id: "mailer", email: "mailer@team.example", notify: false, role: null });
    const sites = await api.get("/api/v1/admin/sites", { admin: true });
    expect(sites.status).toBe(200);
    expect(sites.json.result.map((entry: { id: string }) => entry.id)).toContain(site.id);
    const members = await api.get("/api/v1/admin/members", { admin: true });
    expect(members.json.result.find((entry: { id: string }) => entry.id === "mailer")).toMatchObject({ email: "mailer@team.example", notify: false });
    expectError(await api.get("/api/v1/admin/sites"), 401, "unauthorized");
    expectError(await api.get("/api/v1/admin/members"), 401, "unauthorized");
  });

  test("PATCH a member's email and notify; an email in use is 409; a bad email is 400 and changes nothing", async () => {
    await api.post("/api/v1/admin/members", { admin: true, body: { id: "first", name: "First", email: "first@team.example" } });
    await api.post("/api/v1/admin/members", { admin: true, body: { id: "second", name: "Second" } });
    const patched = await api.patch("/api/v1/admin/members/second", { admin: true, body: { email: "second@team.example", notify: false } });
    expect(patched.json.result).toMatchObject({ email: "second@team.example", notify: false });
    expectError(await api.patch("/api/v1/admin/members/second", { admin: true, body: { email: "FIRST@team.example" } }), 409, "already_exists");
    expectError(await api.post("/api/v1/admin/members", { admin: true, body: { id: "third", name: "Third", email: "first@team.example" } }), 409, "already_exists");
    const before = await rowCounts();
    expectError(await api.patch("/api/v1/admin/members/second", { admin: true, body: { email: "not an email" } }), 400, "invalid_request");
    expectError(await api.patch("/api/v1/admin/members/second", { admin: true, body: { notify: "yes" } }), 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
    expect((await api.patch("/api/v1/admin/members/second", { admin: true, body: { email: null } })).json.result.email).toBeNull();
  });

  test("close appends the system notice once; reopen lets the visitor send again; the read has visitor_seen_sequence", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const as = { origin: started.origin, token: started.token };
    expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true })).json.result.status).toBe("closed");
    await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true });
    const read = (await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true })).json.result;
    expect(read.messages.map((message: { author_type: string; body: string }) => [message.author_type, message.body])).toEqual([
      ["visitor", "hi"],
      ["system", "This conversation was closed."],
    ]);
    expect(read.visitor_seen_sequence).toBe(0);
    await api.get("/api/v1/chat/visitor/messages", as);
    expect((await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true })).json.result.visitor_seen_sequence).toBe(2);

    const reopened = await api.post(`/api/v1/admin/conversations/${started.conversationId}/reopen`, { admin: true });
    expect(reopened.status).toBe(200);
    expect(reopened.json.result.status).toBe("open");
    expect((await api.post("/api/v1/chat/visitor/messages", { ...as, body: { body: "again", client_id: "b" } })).status).toBe(201);
    expectError(await api.post("/api/v1/admin/conversations/nope/reopen", { admin: true }), 404, "conversation_not_found");
    expectError(await api.post(`/api/v1/admin/conversations/${started.conversationId}/reopen`), 401, "unauthorized");
  });

  test("close and reopen each append one system message with its event; after a reopen the visitor writes in the same conversation", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const as = { origin: started.origin, token: started.token };
    const path = `/api/v1/admin/conversations/${started.conversationId}`;
    await api.post(`${path}/close`, { admin: true });
    await api.post(`${path}/reopen`, { admin: true });
    await api.post(`${path}/reopen`, { admin: true }); // twice: one message
    const seenByVisitor = (await api.get("/api/v1/chat/visitor/messages", as)).json.result.items;
    expect(seenByVisitor.map((message: { sequence: number; event?: string }) => [message.sequence, message.event])).toEqual([
      [1, undefined],
      [2, "conversation_closed"],
      [3, "conversation_reopened"],
    ]);
    expect(seenByVisitor.map((message: { author_type: string }) => message.author_type)).toEqual(["visitor", "system", "system"]);

    const again = await api.post("/api/v1/chat/visitor/messages", { ...as, body: { body: "still there?", client_id: "b" } });
    expect(again.status).toBe(201);
    expect(again.json.result.message).toMatchObject({ conversation_id: started.conversationId, sequence: 4 });
    expect(again.json.result.message).not.toHaveProperty("event");
    const staffRead = (await api.get(path, { admin: true })).json.result;
    expect(staffRead.status).toBe("open");
    expect(staffRead.messages.map((message: { event?: string }) => message.event ?? null)).toEqual([null, "conversation_closed", "conversation_reopened", null]);
  });

  test("the visitor's idle polls never write 'seen'; it only grows", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const as = { origin: started.origin, token: started.token };
    await api.get("/api/v1/chat/visitor/messages", as);
    await api.get("/api/v1/chat/visitor/messages?cursor=0", as);
    const seen = async () => (await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true })).json.result.visitor_seen_sequence;
    expect(await seen()).toBe(1);
    await api.get("/api/v1/chat/visitor/messages?cursor=1", as);
    expect(await seen()).toBe(1);
  });
});

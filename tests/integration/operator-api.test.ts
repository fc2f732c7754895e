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

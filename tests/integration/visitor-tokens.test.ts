import { describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { hashToken } from "../../lib/tokens/visitor-token";
import { api, BASE_URL } from "../support/api";
import { createSite, openConversation, ORIGIN, OTHER_ORIGIN, startConversation } from "../support/fixtures";
import { expectError } from "../support/expectations";

const listWith = (headers: { origin?: string | null; token?: string; raw?: string }) =>
  api.get("/api/v1/chat/visitor/messages", {
    origin: headers.origin,
    token: headers.token,
    headers: headers.raw ? { Authorization: headers.raw } : undefined,
  });
const renew = (token: string, origin: string | null = ORIGIN) => api.post("/api/v1/chat/visitor/renew", { origin, token });

async function expireToken(token: string): Promise<void> {
  await (await db()).visitorToken.update({ where: { hash: hashToken(token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
}

describe("visitor authentication", () => {
  test.each([
    ["no Authorization header", {}],
    ["a non-Bearer scheme", { raw: "Basic dXNlcjpwYXNz" }],
    ["a malformed token", { raw: "Bearer not-a-token" }],
    ["an unknown well-formed token", { raw: `Bearer vt_${"A".repeat(43)}` }],
  ])("%s → 401 unauthorized", async (_name, headers) => {
    expectError(await listWith({ origin: ORIGIN, ...headers }), 401, "unauthorized");
  });

  test("a truncated token → 401 unauthorized", async () => {
    const { token } = await openConversation();
    expectError(await listWith({ origin: ORIGIN, token: token.slice(0, -1) }), 401, "unauthorized");
  });

  test("an expired token → 401 token_expired", async () => {
    const { token } = await openConversation();
    await expireToken(token);
    expectError(await listWith({ origin: ORIGIN, token }), 401, "token_expired");
  });

  test("a 401 to a page on an allowlisted origin carries CORS so the widget can read it", async () => {
    const response = await listWith({ origin: ORIGIN, raw: `Bearer vt_${"B".repeat(43)}` });
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const stranger = await listWith({ origin: "https://nobody.example", raw: `Bearer vt_${"B".repeat(43)}` });
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("the token is bound to its origin: another allowed origin is 403 origin_mismatch", async () => {
    const { token } = await openConversation();
    expectError(await listWith({ origin: OTHER_ORIGIN, token }), 403, "origin_mismatch");
  });

  test("a browser's same-origin GET carries no Origin: Sec-Fetch-Site: same-origin stands for the request's own origin", async () => {
    const site = await createSite({ origins: [BASE_URL] });
    const started = await startConversation(site.id, { body: "hi", client_id: "a" }, BASE_URL);
    const sameOrigin = await api.get("/api/v1/chat/visitor/messages", { token: started.token, headers: { "Sec-Fetch-Site": "same-origin" } });
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.json.result.items).toHaveLength(1);
    const crossSite = await api.get("/api/v1/chat/visitor/messages", { token: started.token, headers: { "Sec-Fetch-Site": "cross-site" } });
    expectError(crossSite, 403, "origin_mismatch");
  });

  test("Sec-Fetch-Site: same-origin does not let another origin's token in", async () => {
    const { token } = await openConversation();
    const response = await api.get("/api/v1/chat/visitor/messages", { token, headers: { "Sec-Fetch-Site": "same-origin" } });
    expectError(response, 403, "origin_mismatch");
  });

  test("a missing Origin is an origin_mismatch", async () => {
    const { token } = await openConversation();
    expectError(await listWith({ origin: null, token }), 403, "origin_mismatch");
  });

  test("an origin removed from the allowlist is refused at once: 403 origin_not_allowed", async () => {
    const started = await openConversation();
    const patched = await api.patch(`/api/v1/admin/sites/${started.siteId}`, { admin: true, body: { origins: [OTHER_ORIGIN] } });
    expect(patched.status).toBe(200);
    const response = await listWith({ origin: ORIGIN, token: started.token });
    expectError(response, 403, "origin_not_allowed");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("the token never appears in any response but start and renew", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const responses = await Promise.all([
      listWith({ origin: ORIGIN, token: started.token }),
      api.get("/api/v1/chat/visitor/presence?typing=true", { origin: ORIGIN, token: started.token }),
      api.post("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: started.token, body: { body: "b", client_id: "b" } }),
      api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true }),
    ]);
    for (const response of responses) expect(JSON.stringify(response.json)).not.toContain(started.token);
  });
});

describe("renewing a token", () => {
  test("rotates: the new token works for 24 h more, the old one is dead at once", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const response = await renew(started.token);
    expect(response.status).toBe(200);
    const { visitor_token, expires_at } = response.json.result;
    expect(visitor_token).toMatch(/^vt_[A-Za-z0-9_-]{43}$/);
    expect(visitor_token).not.toBe(started.token);
    expect(Math.abs(new Date(expires_at).getTime() - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    expectError(await listWith({ origin: ORIGIN, token: started.token }), 401, "unauthorized");
    expectError(await renew(started.token), 401, "unauthorized");
    const items = (await listWith({ origin: ORIGIN, token: visitor_token })).json.result.items;
    expect(items.map((m: { body: string }) => m.body)).toEqual(["hi"]);
  });

  test("the new token stays bound to the original origin", async () => {
    const started = await openConversation();
    const { visitor_token } = (await renew(started.token)).json.result;
    expectError(await listWith({ origin: OTHER_ORIGIN, token: visitor_token }), 403, "origin_mismatch");
  });

  test("two concurrent renews with one token: exactly one wins, the other gets 401", async () => {
    const started = await openConversation();
    const results = await Promise.all([renew(started.token), renew(started.token), renew(started.token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    const loser = results.find((r) => r.status === 401)!;
    expectError(loser, 401, "unauthorized");
    const tokens = await (await db()).visitorToken.findMany({ where: { conversationId: started.conversationId } });
    expect(tokens.filter((t) => t.rotatedAt === null)).toHaveLength(1);
  });

  test("an expired token cannot be renewed: 401 token_expired", async () => {
    const started = await openConversation();
    await expireToken(started.token);
    expectError(await renew(started.token), 401, "token_expired");
  });

  test("a closed conversation still renews", async () => {
    const started = await openConversation();
    await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true });
    expect((await renew(started.token)).status).toBe(200);
  });

  test("renew from another origin is refused and rotates nothing", async () => {
    const started = await openConversation();
    expectError(await renew(started.token, OTHER_ORIGIN), 403, "origin_mismatch");
    expect((await listWith({ origin: ORIGIN, token: started.token })).status).toBe(200);
  });
});

describe("visitor preflight", () => {
  test("any canonical origin gets 204; a malformed one 403", async () => {
    const ok = await api.options("/api/v1/chat/visitor/messages", { origin: "https://anywhere.example" });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://anywhere.example");
    expect(ok.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    expectError(await api.options("/api/v1/chat/visitor/messages", { origin: "null" }), 403, "origin_not_allowed");
  });
});

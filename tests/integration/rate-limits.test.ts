import { createHmac } from "node:crypto";
import { beforeEach, describe, expect, test } from "vitest";
import { api, type CallOptions } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN, type Started } from "../support/fixtures";
import { awayFromWindowEdge, forwardedFor as from, randomIp } from "../support/rate-limits";
import { rowCounts } from "../support/row-counts";
import { postTicket, ticket } from "../support/tickets";

// The in-process limiter (no Upstash configured), behind one trusted proxy, with small limits.
process.env.RATE_LIMITS = "on";
process.env.TRUSTED_PROXY_HOPS = "1";
process.env.RATE_LIMIT_STARTS_PER_MINUTE = "3";
process.env.RATE_LIMIT_TICKETS_PER_MINUTE = "2";
process.env.RATE_LIMIT_PAGE_VIEWS_PER_MINUTE = "4";
process.env.RATE_LIMIT_VISITOR_PER_MINUTE = "5";
process.env.RATE_LIMIT_RENEW_PER_HOUR = "2";

beforeEach(() => awayFromWindowEdge());

const start = (siteId: string, ip: string, options: CallOptions = {}) =>
  api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, body: {}, ...options, headers: { ...from(ip), ...options.headers } });
const pageView = (siteId: string, ip: string) =>
  api.post(`/api/v1/chat/widget/${siteId}/visitors`, { origin: ORIGIN, body: { page_url: "https://shop.example/" }, headers: from(ip) });

async function started(siteId: string): Promise<Started> {
  const response = await start(siteId, randomIp());
  expect(response.status).toBe(201);
  return { siteId, conversationId: response.json.result.conversation_id, token: response.json.result.visitor_token, origin: ORIGIN };
}

function expectRateLimited(response: Awaited<ReturnType<typeof start>>, limit: number) {
  expectError(response, 429, "rate_limited");
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(response.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(Number(response.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
  expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
}

describe("per client IP on widget routes", () => {
  test("conversation starts: the limit passes, the next is 429 rate_limited with Retry-After, and stores nothing", async () => {
    const site = await createSite();
    const ip = randomIp();
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const response = await start(site.id, ip);
      expect(response.status).toBe(201);
      expect(response.headers.get("x-ratelimit-limit")).toBe("3");
      remaining.push(response.headers.get("x-ratelimit-remaining"));
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const before = await rowCounts();
    expectRateLimited(await start(site.id, ip, { body: { body: "hello" } }), 3);
    expect(await rowCounts()).toEqual(before);
  });

  test("another IP has its own count", async () => {
    const site = await createSite();
    const ip = randomIp();
    for (let i = 0; i < 3; i++) await start(site.id, ip);
    expectRateLimited(await start(site.id, ip), 3);
    expect((await start(site.id, randomIp())).status).toBe(201);
  });

  test("the count is per IP across sites", async () => {
    const [first, second] = [await createSite(), await createSite()];
    const ip = randomIp();
    for (let i = 0; i < 3; i++) await start(i % 2 ? first.id : second.id, ip);
    expectRateLimited(await start(second.id, ip), 3);
  });

  test("writing other addresses at the left of X-Forwarded-For does not escape the limit", async () => {
    const site = await createSite();
    const ip = randomIp();
    for (let i = 0; i < 3; i++) expect((await start(site.id, ip, { headers: from(ip, randomIp()) })).status).toBe(201);
    expectRateLimited(await start(site.id, ip, { headers: from(ip, randomIp()) }), 3);
  });

  test("tickets have a limit of their own", async () => {
    const site = await createSite();
    const ip = randomIp();
    for (let i = 0; i < 2; i++) expect((await postTicket(site.id, ticket(), { headers: from(ip) })).status).toBe(201);
    const before = await rowCounts();
    expectRateLimited(await postTicket(site.id, ticket(), { headers: from(ip) }), 2);
    expect(await rowCounts()).toEqual(before);
    expect((await start(site.id, ip)).status).toBe(201); // starts are counted apart
  });

  test("a returning visitor's history counts as a start, in the same bucket", async () => {
    const site = await createSite();
    const secret = (await api.post(`/api/v1/admin/sites/${site.id}/identity-secret`, { admin: true })).json.result.identity_secret as string;
    const pair = { user_id: "u1", user_hash: createHmac("sha256", secret).update("u1").digest("hex") };
    const history = (ip: string) => api.post(`/api/v1/chat/widget/${site.id}/history`, { origin: ORIGIN, body: pair, headers: from(ip) });
    const ip = randomIp();
    expect((await start(site.id, ip)).status).toBe(201);
    expect((await history(ip)).status).toBe(200);
    expect((await history(ip)).status).toBe(200);
    expectRateLimited(await start(site.id, ip), 3);
    expectRateLimited(await history(ip), 3);
    expect((await history(randomIp())).status).toBe(200);
  });

  test("page views have a limit of their own", async () => {
    const site = await createSite();
    const ip = randomIp();
    for (let i = 0; i < 4; i++) expect((await pageView(site.id, ip)).status).toBe(201);
    expectRateLimited(await pageView(site.id, ip), 4);
  });
});

describe("the order of checks", () => {
  test("an unknown site (404) and a foreign origin (403) come before the limit", async () => {
    const site = await createSite();
    const ip = randomIp();
    for (let i = 0; i < 3; i++) await start(site.id, ip);
    expectError(await start("no-such-site", ip), 404, "site_not_found");
    expectError(await start(site.id, ip, { origin: "https://evil.example" }), 403, "origin_not_allowed");
  });

  test("the limit comes before body validation", async () => {
    const site = await createSite();
    const ip = randomIp();
    for (let i = 0; i < 3; i++) await start(site.id, ip);
    expectRateLimited(await start(site.id, ip, { body: { unknown_field: true } }), 3);
  });

  test("requests refused before the limit step are not counted", async () => {
    const site = await createSite();
    const ip = randomIp();
    for (let i = 0; i < 5; i++) await start(site.id, ip, { origin: "https://evil.example" });
    expect((await start(site.id, ip)).status).toBe(201);
  });

  test("requests refused by validation still count", async () => {
    const site = await createSite();
    const ip = randomIp();
    for (let i = 0; i < 3; i++) expectError(await start(site.id, ip, { body: { bad: 1 } }), 400, "invalid_request");
    expectRateLimited(await start(site.id, ip), 3);
  });
});

describe("per token on visitor routes", () => {
  test("sends, lists and presence polls share the token's count", async () => {
    const site = await createSite();
    const chat = await started(site.id);
    const auth = { origin: ORIGIN, token: chat.token };
    expect((await api.post("/api/v1/chat/visitor/messages", { ...auth, body: { body: "hi", client_id: "c1" } })).status).toBe(201);
    expect((await api.get("/api/v1/chat/visitor/messages", auth)).status).toBe(200);
    expect((await api.get("/api/v1/chat/visitor/presence", auth)).status).toBe(200);
    expect((await api.get("/api/v1/chat/visitor/messages", auth)).status).toBe(200);
    const fifth = await api.get("/api/v1/chat/visitor/presence", auth);
    expect(fifth.status).toBe(200);
    expect(fifth.headers.get("x-ratelimit-remaining")).toBe("0");
    const before = await rowCounts();
    expectRateLimited(await api.post("/api/v1/chat/visitor/messages", { ...auth, body: { body: "more", client_id: "c2" } }), 5);
    expect(await rowCounts()).toEqual(before);
    const other = await started(site.id);
    expect((await api.get("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: other.token })).status).toBe(200);
  });

  test("an unknown token is 401 before any limit", async () => {
    expectError(await api.get("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: `vt_${"A".repeat(43)}` }), 401, "unauthorized");
  });

  test("renew has its own hourly limit, which rotating the token does not reset", async () => {
    await awayFromWindowEdge(60 * 60_000);
    const site = await createSite();
    let token = (await started(site.id)).token;
    for (let i = 0; i < 2; i++) {
      const renewed = await api.post("/api/v1/chat/visitor/renew", { origin: ORIGIN, token });
      expect(renewed.status).toBe(200);
      token = renewed.json.result.visitor_token;
    }
    const refused = await api.post("/api/v1/chat/visitor/renew", { origin: ORIGIN, token });
    expectRateLimited(refused, 2);
    expect((await api.get("/api/v1/chat/visitor/messages", { origin: ORIGIN, token })).status).toBe(200); // still valid
  });
});

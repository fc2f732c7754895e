import { afterAll, beforeEach, describe, expect, test, vi } from "vitest";
import { UpstashLimiter } from "../../lib/rate-limits/upstash-limiter";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { awayFromWindowEdge, forwardedFor as from, randomIp } from "../support/rate-limits";
import { postTicket, ticket } from "../support/tickets";
import { requireService } from "../support/requires";
import { startUpstashRestServer, type UpstashRestServer } from "../support/upstash-rest-server";

// Upstash Redis through its REST protocol, served by a fixture onto the real Redis at
// 127.0.0.1:6379. Limits are the defaults; one trusted proxy. Without Redis: skipped with one
// line locally, a failure under CI (tests/support/requires.ts).
const redisUp = await requireService("redis");
const upstash = (redisUp ? await startUpstashRestServer() : undefined) as UpstashRestServer;
process.env.RATE_LIMITS = "on";
process.env.TRUSTED_PROXY_HOPS = "1";
if (redisUp) {
  process.env.UPSTASH_REDIS_REST_URL = upstash.url;
  process.env.UPSTASH_REDIS_REST_TOKEN = upstash.token;
}
process.env.LOG_LEVEL = "warn";

afterAll(() => upstash?.close());
beforeEach(() => awayFromWindowEdge());

const start = (siteId: string, ip: string) =>
  api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, body: {}, headers: from(ip) });

describe.runIf(redisUp)("rate limits kept in Upstash Redis", () => {
  test("conversation starts: 10 per minute per IP by default, counted in Redis", async () => {
    const site = await createSite();
    const ip = randomIp();
    const commandsBefore = upstash.commands;
    for (let i = 0; i < 10; i++) expect((await start(site.id, ip)).status).toBe(201);
    const refused = await start(site.id, ip);
    expectError(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("10");
    expect(upstash.commands).toBeGreaterThan(commandsBefore);
    expect(await upstash.redis.keys(`parley:rl:starts:ip:${ip}:*`)).not.toEqual([]);
    expect((await start(site.id, randomIp())).status).toBe(201);
  });

  test("the count is shared by every instance of the service", async () => {
    const site = await createSite();
    const ip = randomIp();
    for (let i = 0; i < 4; i++) await start(site.id, ip);
    const otherInstance = new UpstashLimiter({ url: upstash.url, token: upstash.token }, 10, 60_000, "parley:rl:starts");
    const outcome = await otherInstance.limit(`ip:${ip}`);
    expect(outcome).toMatchObject({ success: true, limit: 10, remaining: 5 });
  });

  test("each route family has its default limit", async () => {
    const site = await createSite();
    const ticketReply = await postTicket(site.id, ticket(), { headers: from(randomIp()) });
    expect(ticketReply.headers.get("x-ratelimit-limit")).toBe("10");
    const pageView = await api.post(`/api/v1/chat/widget/${site.id}/visitors`, {
      origin: ORIGIN,
      body: { page_url: "https://shop.example/" },
      headers: from(randomIp()),
    });
    expect(pageView.headers.get("x-ratelimit-limit")).toBe("60");
    const started = await start(site.id, randomIp());
    const auth = { origin: ORIGIN, token: started.json.result.visitor_token };
    expect((await api.get("/api/v1/chat/visitor/messages", auth)).headers.get("x-ratelimit-limit")).toBe("120");
    expect((await api.post("/api/v1/chat/visitor/renew", auth)).headers.get("x-ratelimit-limit")).toBe("10");
  });
});

describe("when Upstash cannot be reached, the service keeps serving and says so", () => {
  test("connections refused: requests pass (fail open) and a warning is logged", async () => {
    const site = await createSite();
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    let lines: string[] = [];
    upstash.mode = "down";
    try {
      const ip = randomIp();
      for (let i = 0; i < 12; i++) {
        const response = await start(site.id, ip);
        expect(response.status).toBe(201);
        expect(response.headers.get("x-ratelimit-limit")).toBeNull();
      }
      lines = stderr.mock.calls.map(([line]) => String(line));
    } finally {
      upstash.mode = "normal";
      stderr.mockRestore();
    }
    expect(lines.some((line) => line.includes('"rate_limiter_unavailable"') && line.includes('"starts"'))).toBe(true);
  });

  test("too slow to answer: requests pass after the timeout and a warning is logged", async () => {
    const site = await createSite();
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    let lines: string[] = [];
    upstash.mode = "slow";
    try {
      const response = await api.post(`/api/v1/chat/widget/${site.id}/visitors`, {
        origin: ORIGIN,
        body: { page_url: "https://shop.example/" },
        headers: from(randomIp()),
      });
      expect(response.status).toBe(201);
      // Answered while Upstash still holds the limiter's command: the limiter's timeout cut it
      // (a wall-clock bound here missed under load).
      expect(upstash.held).toBeGreaterThan(0);
      lines = stderr.mock.calls.map(([line]) => String(line));
    } finally {
      upstash.mode = "normal";
      stderr.mockRestore();
    }
    expect(lines.some((line) => line.includes('"rate_limiter_unavailable"') && line.includes('"page_views"'))).toBe(true);
  });
});

describe("failed sign-ins kept in Upstash Redis", () => {
  test("5 failures for an account from one IP, then 429 before any password check; counted in Redis", async () => {
    const { createStaff, INBOX_ORIGIN, PASSWORD } = await import("../support/inbox");
    const staff = await createStaff();
    const ip = randomIp();
    const signIn = (password: string) =>
      api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: staff.email, password }, headers: from(ip) });
    for (let i = 0; i < 5; i++) expectError(await signIn(`wrong ${i}`), 401, "invalid_credentials");
    expectError(await signIn(PASSWORD), 429, "rate_limited");
    expect(await upstash.redis.keys(`parley:rl:sign_in_failures:${ip}|${staff.email}*`)).not.toEqual([]);
    // Another IP is not affected.
    expect((await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: staff.email, password: PASSWORD }, headers: from(randomIp()) })).status).toBe(200);
  });
});

describe.runIf(redisUp)("attempts given back in Upstash Redis", () => {
  test("release gives one counted request back, in Redis (and lifts the in-memory block)", async () => {
    const limiter = new UpstashLimiter({ url: upstash.url, token: upstash.token }, 2, 60_000, "parley:rl:release-test");
    const identifier = `ip:${randomIp()}`;
    const counted = async () => {
      const values = await Promise.all((await upstash.redis.keys(`parley:rl:release-test:${identifier}:*`)).map((key) => upstash.redis.get(key)));
      return values.reduce((sum, value) => sum + Number(value), 0);
    };
    expect((await limiter.limit(identifier)).success).toBe(true);
    expect((await limiter.limit(identifier)).success).toBe(true);
    expect((await limiter.limit(identifier)).success).toBe(false);
    expect(await counted()).toBe(2);
    await limiter.release(identifier);
    expect(await counted()).toBe(1);
    expect(await limiter.peek(identifier)).toMatchObject({ success: true, remaining: 1 });
    // Another instance (no in-memory block) and this one agree.
    const otherInstance = new UpstashLimiter({ url: upstash.url, token: upstash.token }, 2, 60_000, "parley:rl:release-test");
    expect(await otherInstance.peek(identifier)).toMatchObject({ remaining: 1 });
    expect((await limiter.limit(identifier)).success).toBe(true);
    expect((await limiter.limit(identifier)).success).toBe(false);
  });

  test("failed sign-ins are counted in Redis; a correct one gives its attempt back", async () => {
    await awayFromWindowEdge(15 * 60_000);
    const { createStaff, INBOX_ORIGIN, PASSWORD } = await import("../support/inbox");
    const staff = await createStaff();
    const ip = randomIp();
    const signIn = (password: string) =>
      api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: staff.email, password }, headers: from(ip) });
    const counted = async () => {
      const keys = await upstash.redis.keys(`parley:rl:sign_in_failures:${ip}|${staff.email}:*`);
      return (await Promise.all(keys.map((key) => upstash.redis.get(key)))).reduce((sum, value) => sum + Number(value), 0);
    };
    for (let i = 0; i < 4; i++) expectError(await signIn(`wrong ${i}`), 401, "invalid_credentials");
    expect(await counted()).toBe(4);
    for (let i = 0; i < 2; i++) expect((await signIn(PASSWORD)).status).toBe(200);
    expect(await counted()).toBe(4);
    expectError(await signIn("wrong 5"), 401, "invalid_credentials");
    expectError(await signIn(PASSWORD), 429, "rate_limited");
    expect(await counted()).toBe(5);
  });

  test("with Upstash unreachable, sign-in fails open (logged) but stays one check at a time", async () => {
    const { createStaff, INBOX_ORIGIN, PASSWORD } = await import("../support/inbox");
    const staff = await createStaff();
    const ip = randomIp();
    const signIn = (password: string) =>
      api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: staff.email, password }, headers: from(ip) });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    let lines: string[] = [];
    upstash.mode = "down";
    try {
      for (let i = 0; i < 6; i++) expectError(await signIn(`wrong ${i}`), 401, "invalid_credentials");
      const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn(`wrong burst ${i}`)));
      const checked = burst.filter((response) => response.status === 401).length;
      expect(checked).toBeGreaterThanOrEqual(1);
      expect(checked).toBeLessThanOrEqual(3); // one at a time: only one that arrived after another ended
      expect(burst.filter((response) => response.status === 429).length).toBe(10 - checked);
      expect((await signIn(PASSWORD)).status).toBe(200);
      lines = stderr.mock.calls.map(([line]) => String(line));
    } finally {
      upstash.mode = "normal";
      stderr.mockRestore();
    }
    expect(lines.some((line) => line.includes('"rate_limiter_unavailable"') && line.includes('"sign_in_failures"'))).toBe(true);
  });
});

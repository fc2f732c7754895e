import { describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { as, createStaff } from "../support/inbox";
import { awayFromWindowEdge } from "../support/rate-limits";

// Search is limited per member, and for the operator token as one account (each search reads
// indexes over every message).
process.env.RATE_LIMITS = "on";
process.env.RATE_LIMIT_SEARCH_PER_MINUTE = "3";

const expectLimited = (limited: Awaited<ReturnType<typeof api.get>>) => {
  expectError(limited, 429, "rate_limited");
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(limited.headers.get("x-ratelimit-limit")).toBe("3");
  expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
};

describe("search, per member and per operator token", { timeout: 90_000 }, () => {
  test("the fourth search in a minute is 429 with Retry-After; another member still searches", async () => {
    const [ada, ben] = await Promise.all([createStaff("agent", "Ada Search"), createStaff("agent", "Ben Search")]);
    await awayFromWindowEdge();
    for (let i = 0; i < 3; i++) {
      const found = await api.get("/api/v1/inbox/search?q=invoice", as(ada));
      expect(found.status).toBe(200);
      expect(found.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
    }
    expectLimited(await api.get("/api/v1/inbox/search?q=invoice", as(ada)));
    expect((await api.get("/api/v1/inbox/search?q=invoice", as(ben))).status).toBe(200);
  });

  test("the operator token's fourth search in a minute is 429; the members' searches are counted apart", async () => {
    const cleo = await createStaff("agent", "Cleo Search");
    await awayFromWindowEdge();
    for (let i = 0; i < 3; i++) {
      const found = await api.get("/api/v1/admin/search?q=invoice", { admin: true });
      expect(found.status).toBe(200);
      expect(found.headers.get("x-ratelimit-limit")).toBe("3");
    }
    expectLimited(await api.get("/api/v1/admin/search?q=invoice", { admin: true }));
    expect((await api.get("/api/v1/inbox/search?q=invoice", as(cleo))).status).toBe(200);
  });
});

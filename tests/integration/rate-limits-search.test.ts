import { describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { as, createStaff } from "../support/inbox";
import { awayFromWindowEdge } from "../support/rate-limits";

// The inbox's search is limited per member (each search reads indexes over every message).
process.env.RATE_LIMITS = "on";
process.env.RATE_LIMIT_SEARCH_PER_MINUTE = "3";

describe("search, per member", { timeout: 90_000 }, () => {
  test("the fourth search in a minute is 429 with Retry-After; another member still searches", async () => {
    const [ada, ben] = await Promise.all([createStaff("agent", "Ada Search"), createStaff("agent", "Ben Search")]);
    await awayFromWindowEdge();
    for (let i = 0; i < 3; i++) expect((await api.get("/api/v1/inbox/search?q=invoice", as(ada))).status).toBe(200);
    const limited = await api.get("/api/v1/inbox/search?q=invoice", as(ada));
    expectError(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await api.get("/api/v1/inbox/search?q=invoice", as(ben))).status).toBe(200);
  });
});

import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../support/api";
import { ORIGIN } from "../support/fixtures";
import { expectError } from "../support/expectations";

// Nothing listens on port 1: every route must answer 503 quickly, not hang and not 500.
process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/parley";

describe("an unreachable database", () => {
  // The time limit is the answer's, not the first compile of a route's modules (tests/support/api.ts
  // imports route files on first use) nor the first load of the database driver's (on the first
  // attempt to connect, 2.6 s once with both test workers busy): both happen before the clock starts.
  beforeAll(async () => {
    await Promise.all([
      import("../../app/api/v1/chat/widget/[siteID]/conversations/route"),
      import("../../app/api/v1/chat/visitor/messages/route"),
      import("../../app/api/v1/admin/conversations/route"),
      import("../../app/api/ready/route"),
    ]);
    expect((await api.get("/api/ready")).status).toBe(503);
  });

  test.each([
    ["a widget route", () => api.post("/api/v1/chat/widget/demo/conversations", { origin: ORIGIN, body: {} })],
    ["a visitor route", () => api.get("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: `vt_${"A".repeat(43)}` })],
    ["an operator route", () => api.get("/api/v1/admin/conversations?site=demo", { admin: true })],
    ["the readiness probe", () => api.get("/api/ready")],
  ])("%s answers 503 service_unavailable with Retry-After", async (_name, request) => {
    const startedAt = Date.now();
    const response = await request();
    expectError(response, 503, "service_unavailable");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Date.now() - startedAt).toBeLessThan(2_500);
  });

  test("the liveness probe still answers 200: the process itself is fine", async () => {
    expect((await api.get("/api/health")).status).toBe(200);
  });
});

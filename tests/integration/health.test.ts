import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { startUpstashRestServer } from "../support/upstash-rest-server";

// Rate limits kept in Upstash Redis (through the REST fixture onto the real Redis), so readiness
// has two backends to check.
const upstash = await startUpstashRestServer();
process.env.UPSTASH_REDIS_REST_URL = upstash.url;
process.env.UPSTASH_REDIS_REST_TOKEN = upstash.token;
afterAll(() => upstash.close());
// Opening (and migrating) the database is the slow part; keep it out of the first probe's time.
beforeAll(async () => {
  await db();
});

describe("health and readiness probes", () => {
  test("GET /api/health answers 200 in the envelope, without credentials or CORS", async () => {
    const response = await api.get("/api/health");
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ success: true, result: { status: "ok" }, message: "Alive." });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("GET /api/ready answers 200 when the database and Redis answer", async () => {
    upstash.mode = "normal";
    const response = await api.get("/api/ready");
    expect(response.status).toBe(200);
    expect(response.json.result).toEqual({ database: "ok", redis: "ok" });
  });

  test("GET /api/ready answers 503 service_unavailable with Retry-After while Redis is down", async () => {
    upstash.mode = "down";
    try {
      const response = await api.get("/api/ready");
      expectError(response, 503, "service_unavailable");
      expect(response.json.message).toMatch(/Redis/);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await api.get("/api/health")).status).toBe(200);
    } finally {
      upstash.mode = "normal";
    }
  });

  test("other methods are 404 not_found in the envelope", async () => {
    expectError(await api.post("/api/ready", { body: {} }), 404, "not_found");
    expectError(await api.delete("/api/health"), 404, "not_found");
  });
});

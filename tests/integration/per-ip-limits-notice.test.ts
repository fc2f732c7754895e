import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";

// `npm run dev` said at start, in a JSON line of level "warn", that per-IP rate limits are off
// (per_ip_rate_limits_off): expected there, yet it read like an error. In development it is now
// one plain sentence; every other way of running keeps the JSON event that log collectors parse.

const saved = { ...process.env };
let written: string[] = [];

beforeEach(() => {
  written = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  vi.resetModules(); // lib/core/env.ts parses the environment once per module instance
});

afterEach(() => {
  vi.restoreAllMocks();
  process.env = { ...saved };
});

/** reportPerIpLimits() as a server started with `environment` runs it. */
async function startWith(environment: Record<string, string>): Promise<boolean> {
  Object.assign(process.env, { RATE_LIMITS: "on", TRUSTED_PROXY_HOPS: "0", LOG_LEVEL: "info", VERCEL: "" }, environment);
  const { reportPerIpLimits } = await import("../../lib/prepare-service");
  return reportPerIpLimits();
}

describe("per-IP rate limits off at start (per_ip_rate_limits_off)", () => {
  test("in development: one plain line, no JSON", async () => {
    expect(await startWith({ NODE_ENV: "development" })).toBe(true);
    expect(written).toHaveLength(1);
    const line = written[0]!;
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1)).not.toContain("\n");
    expect(line).toMatch(/^Parley: per-IP rate limits \(starts, tickets, page views\) are off: `next dev` cannot tell clients apart\. /);
    expect(line).toContain("Expected in development; in production use `npm start` or set TRUSTED_PROXY_HOPS.");
    expect(line).not.toMatch(/[{}"]|warn/);
  });

  test("in production (next start): the JSON event, as log collectors expect", async () => {
    expect(await startWith({ NODE_ENV: "production" })).toBe(true);
    expect(written).toHaveLength(1);
    const event = JSON.parse(written[0]!) as Record<string, unknown>;
    expect(event).toMatchObject({ level: "warn", event: "per_ip_rate_limits_off", limits: ["starts", "tickets", "page_views"] });
    expect(event.fix).toContain("TRUSTED_PROXY_HOPS");
  });

  test("LOG_LEVEL still decides: error silences the line in development too", async () => {
    expect(await startWith({ NODE_ENV: "development", LOG_LEVEL: "error" })).toBe(true);
    expect(written).toEqual([]);
  });
});

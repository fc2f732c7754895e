import { describe, expect, test } from "vitest";
import { limiterFor } from "../../lib/rate-limits/enforce-rate-limit";
import { rateLimitRule } from "../../lib/rate-limits/limits";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createStaff, INBOX_ORIGIN, PASSWORD } from "../support/inbox";
import { awayFromWindowEdge, forwardedFor, randomIp } from "../support/rate-limits";

// Issue 38, "Sign-in cannot be used to lock people out": failures count per account *and* client,
// and per client across accounts. Behind one trusted proxy, so each test's clients are told apart
// (X-Forwarded-For's last entry); without a known client address see inbox-auth.test.ts.
process.env.TRUSTED_PROXY_HOPS = "1";

const signIn = (email: string, password: string, ip: string) =>
  api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email, password }, headers: forwardedFor(ip) });

describe("sign-in failures are counted per account and client", { timeout: 120_000 }, () => {
  test("a stranger who fails 5 times from one client is held there, and the member still signs in from their own", async () => {
    await awayFromWindowEdge(15 * 60_000);
    const member = await createStaff("agent", "Lock Target");
    const stranger = randomIp();
    for (let attempt = 1; attempt <= 5; attempt++) expectError(await signIn(member.email, `guess ${attempt}`, stranger), 401, "invalid_credentials");
    expectError(await signIn(member.email, PASSWORD, stranger), 429, "rate_limited");
    expect((await signIn(member.email, PASSWORD, randomIp())).status).toBe(200);
    // And the member's own wrong guesses from their own client are theirs alone.
    const own = randomIp();
    expectError(await signIn(member.email, "typo", own), 401, "invalid_credentials");
    expect((await signIn(member.email, PASSWORD, own)).status).toBe(200);
  });

  test("one client guessing across many accounts is held after 20 failures, whatever the account; other clients are not", async () => {
    await awayFromWindowEdge(15 * 60_000);
    const member = await createStaff("agent", "Spray Target");
    const sprayer = randomIp();
    for (let account = 1; account <= 20; account++) {
      expectError(await signIn(`sprayed-${account}@team.example`, "Winter2026!", sprayer), 401, "invalid_credentials");
    }
    const held = await signIn(member.email, PASSWORD, sprayer);
    expectError(held, 429, "rate_limited");
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    expectError(await signIn("sprayed-21@team.example", "Winter2026!", sprayer), 429, "rate_limited");
    expect((await signIn(member.email, PASSWORD, randomIp())).status).toBe(200);
  });

  test("an attempt refused by the client's count takes no place in the account's", async () => {
    await awayFromWindowEdge(15 * 60_000);
    const member = await createStaff("agent", "Give Back");
    const sprayer = randomIp();
    for (let account = 1; account <= 20; account++) expectError(await signIn(`give-back-${account}@team.example`, "x", sprayer), 401, "invalid_credentials");
    for (let attempt = 1; attempt <= 8; attempt++) expectError(await signIn(member.email, "x", sprayer), 429, "rate_limited");
    const accountCount = await limiterFor(rateLimitRule("sign_in_failures")).peek(`${sprayer}|${member.email}`);
    expect(accountCount.remaining).toBe(5);
  });
});

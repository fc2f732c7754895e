import { describe, expect, test } from "vitest";
import { dailyUsage, drawDailyAllowance, secondsUntilNextUtcMidnight } from "../../lib/allowance/daily-allowance";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN, startConversation, visitor } from "../support/fixtures";
import { rowCounts } from "../support/row-counts";
import { postTicket, ticket } from "../support/tickets";

const start = (siteId: string, body: Record<string, unknown> = {}) =>
  api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, body });
const usage = async (inboxId: string) => dailyUsage(await db(), inboxId);
const setAllowance = (siteId: string, daily_allowance: number) =>
  api.patch(`/api/v1/admin/sites/${siteId}`, { admin: true, body: { daily_allowance } });

function expectExhausted(response: Awaited<ReturnType<typeof start>>) {
  expectError(response, 429, "daily_allowance_exhausted");
  const retryAfter = Number(response.headers.get("retry-after"));
  const expected = secondsUntilNextUtcMidnight(new Date());
  expect(retryAfter).toBeGreaterThanOrEqual(expected - 5);
  expect(retryAfter).toBeLessThanOrEqual(expected + 1);
  expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
}

describe("the daily allowance", () => {
  test("defaults to 500 per inbox", async () => {
    expect((await createSite()).daily_allowance).toBe(500);
  });

  test("each conversation start draws one unit; past the allowance, 429 until the next UTC midnight", async () => {
    const site = await createSite({ daily_allowance: 2 });
    expect((await start(site.id)).status).toBe(201);
    expect((await start(site.id)).status).toBe(201);
    const before = await rowCounts();
    expectExhausted(await start(site.id, { body: "hello" }));
    expect(await rowCounts()).toEqual(before);
    expect(await usage(site.inbox_id)).toBe(2);
  });

  test("tickets and conversation starts draw on the same allowance", async () => {
    const site = await createSite({ daily_allowance: 3 });
    expect((await start(site.id)).status).toBe(201);
    expect((await postTicket(site.id, ticket())).status).toBe(201);
    expect((await start(site.id)).status).toBe(201);
    const before = await rowCounts();
    expectExhausted(await postTicket(site.id, ticket()));
    expectExhausted(await start(site.id));
    expect(await rowCounts()).toEqual(before);
  });

  test("an allowance of 0 refuses the day's first request and records no usage", async () => {
    const site = await createSite({ daily_allowance: 0 });
    const before = await rowCounts();
    expectExhausted(await start(site.id));
    expectExhausted(await postTicket(site.id, ticket()));
    expect(await rowCounts()).toEqual(before);
  });

  test("changing the allowance through the operator API applies at once", async () => {
    const site = await createSite({ daily_allowance: 1 });
    expect((await start(site.id)).status).toBe(201);
    expectExhausted(await start(site.id));
    expect((await setAllowance(site.id, 2)).status).toBe(200);
    expect((await start(site.id)).status).toBe(201);
    expectExhausted(await start(site.id));
    expect((await setAllowance(site.id, 0)).status).toBe(200);
    expectExhausted(await start(site.id));
  });

  test("inboxes are counted apart", async () => {
    const first = await createSite({ daily_allowance: 1 });
    const second = await createSite({ daily_allowance: 1 });
    expect((await start(first.id)).status).toBe(201);
    expect((await start(second.id)).status).toBe(201);
    expectExhausted(await start(first.id));
  });

  test("messages, page views, renewals and rejected starts draw nothing", async () => {
    const site = await createSite();
    const started = await startConversation(site.id);
    expect(await usage(site.inbox_id)).toBe(1);
    expect((await api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { body: "hi", client_id: "c1" } })).status).toBe(201);
    expect((await api.post(`/api/v1/chat/widget/${site.id}/visitors`, { origin: ORIGIN, body: { page_url: `${ORIGIN}/` } })).status).toBe(201);
    expect((await api.post("/api/v1/chat/visitor/renew", visitor(started))).status).toBe(200);
    expectError(await start(site.id, { name: "x".repeat(81) }), 400, "invalid_request");
    expectError(await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: "https://evil.example", body: {} }), 403, "origin_not_allowed");
    const offline = await createSite({ offline: true });
    expectError(await start(offline.id), 400, "email_required");
    expect(await usage(site.inbox_id)).toBe(1);
    expect(await usage(offline.inbox_id)).toBe(0);
  });

  test("a creation that fails after drawing gives its unit back", async () => {
    const site = await createSite({ daily_allowance: 1 });
    const prisma = await db();
    await expect(
      prisma.$transaction(async (tx) => {
        await drawDailyAllowance(tx, site.inbox_id);
        throw new Error("the creation failed");
      }),
    ).rejects.toThrow("the creation failed");
    expect(await usage(site.inbox_id)).toBe(0);
    expect((await start(site.id)).status).toBe(201);
  });

  test("a new UTC day starts from zero", async () => {
    const site = await createSite({ daily_allowance: 1 });
    expect((await start(site.id)).status).toBe(201);
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
    const prisma = await db();
    await expect(prisma.$transaction((tx) => drawDailyAllowance(tx, site.inbox_id, tomorrow))).resolves.toBe(1);
    await expect(prisma.$transaction((tx) => drawDailyAllowance(tx, site.inbox_id, tomorrow))).rejects.toMatchObject({
      code: "daily_allowance_exhausted",
    });
  });

  test("Retry-After counts to the next UTC midnight", () => {
    expect(secondsUntilNextUtcMidnight(new Date("2026-11-22T23:59:59.000Z"))).toBe(1);
    expect(secondsUntilNextUtcMidnight(new Date("2026-11-22T00:00:00.000Z"))).toBe(86_400);
    expect(secondsUntilNextUtcMidnight(new Date("2026-11-22T12:00:00.500Z"))).toBe(43_200);
  });
});

describe("under concurrency the allowance is never exceeded", () => {
  test("100 concurrent starts against an allowance of 40: exactly 40 succeed", async () => {
    const site = await createSite({ daily_allowance: 40 });
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => start(site.id, { body: `hello ${i}` })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(40);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60);
    for (const response of responses.filter((r) => r.status === 429)) expect(response.json.result.code).toBe("daily_allowance_exhausted");
    const prisma = await db();
    expect(await prisma.conversation.count({ where: { siteId: site.id } })).toBe(40);
    expect(await prisma.message.count({ where: { conversation: { siteId: site.id } } })).toBe(40);
    expect(await usage(site.inbox_id)).toBe(40);
  });

  test("starts and tickets racing together share the allowance exactly", async () => {
    const site = await createSite({ daily_allowance: 25 });
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? start(site.id) : postTicket(site.id, ticket()))),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(25);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(35);
    const prisma = await db();
    const created = (await prisma.conversation.count({ where: { siteId: site.id } })) + (await prisma.ticket.count({ where: { siteId: site.id } }));
    expect(created).toBe(25);
    const numbers = (await prisma.ticket.findMany({ where: { siteId: site.id }, select: { number: true } })).map((row) => row.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1)); // no gaps left by refused tickets
  });
});

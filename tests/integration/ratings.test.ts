import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { eventData } from "../../lib/webhooks/event-data";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { openConversation, visitor, type Started } from "../support/fixtures";

// POST /api/v1/chat/visitor/rating (decisions.md, round 3, "Satisfaction and reports").

const rate = (started: Started, body: unknown) => api.post("/api/v1/chat/visitor/rating", { ...visitor(started), body });
const operator = (started: Started, action: "close" | "reopen") =>
  api.post(`/api/v1/admin/conversations/${started.conversationId}/${action}`, { admin: true });
const ratingsOf = async (started: Started) =>
  (await db()).conversationRating.findMany({ where: { conversationId: started.conversationId }, orderBy: { createdAt: "asc" } });

// The file's database is made and migrated on first use: not inside a test's time.
beforeAll(async () => void (await db()));

describe("ratings after a close", () => {
  test("409 rating_closed while open; 201 once per close, again after the next close", async () => {
    const started = await openConversation({ body: "Hello" });
    expectError(await rate(started, { score: 5 }), 409, "rating_closed");
    expect((await operator(started, "close")).status).toBe(200);
    const first = await rate(started, { score: 4, comment: "  Quick and kind.  " });
    expect(first.status).toBe(201);
    expect(first.json.result).toMatchObject({ score: 4, comment: "Quick and kind." });
    expectError(await rate(started, { score: 1 }), 409, "rating_closed");
    expect((await operator(started, "reopen")).status).toBe(200);
    expectError(await rate(started, { score: 1 }), 409, "rating_closed");
    expect((await operator(started, "close")).status).toBe(200);
    expect((await rate(started, { score: 2 })).status).toBe(201);
    expect((await ratingsOf(started)).map((row) => row.score)).toEqual([4, 2]);
  });

  test.each([
    [{ score: 0 }],
    [{ score: 6 }],
    [{ score: 2.5 }],
    [{ score: "5" }],
    [{}],
    [{ score: 3, comment: "x".repeat(1001) }],
    [{ score: 3, comment: "   " }],
    [{ score: 3, extra: true }],
  ])("a bad body %j is 400 invalid_request and stores nothing", async (body) => {
    const started = await openConversation({ body: "Hello" });
    await operator(started, "close");
    expectError(await rate(started, body), 400, "invalid_request");
    expect(await ratingsOf(started)).toHaveLength(0);
  });

  test("without a visitor token 401; the webhook event carries the rating", async () => {
    expectError(await api.post("/api/v1/chat/visitor/rating", { origin: "https://shop.example", body: { score: 5 } }), 401, "unauthorized");
    const started = await openConversation({ body: "Hello" });
    await operator(started, "close");
    expect((await rate(started, { score: 5 })).status).toBe(201);
    const [row] = await ratingsOf(started);
    expect(await eventData("conversation.rated", row!.id)).toMatchObject({
      conversation_id: started.conversationId,
      site_id: started.siteId,
      rating: { score: 5, comment: null, closed_at: row!.closedAt.toISOString() },
    });
  });
});

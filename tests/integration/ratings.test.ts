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

describe("one-click rating links in emails (GET /api/v1/chat/rate confirms, POST records)", () => {
  const linkRoute = () => import("../../app/api/v1/chat/rate/route");
  const get = async (url: string) => (await linkRoute()).GET(new Request(url));
  const post = async (form: Record<string, string>) =>
    (await linkRoute()).POST(
      new Request("http://localhost/api/v1/chat/rate", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form) }),
    );
  const linksOf = async (started: Started) => {
    const { ratingLinks } = await import("../../lib/email/links/rating-links");
    const conversation = await (await db()).conversation.findUniqueOrThrow({ where: { id: started.conversationId } });
    return ratingLinks({ conversationId: started.conversationId, closedAt: conversation.closedAt ?? new Date() });
  };
  const tokenOf = (url: string) => new URL(url).searchParams.get("t")!;

  test("GET shows the confirmation and records nothing; POST records once; the close's token rates only that close", async () => {
    const started = await openConversation({ body: "Hello" });
    expect((await operator(started, "close")).status).toBe(200);
    const links = await linksOf(started);
    expect(links.map((link) => new URL(link.url).searchParams.get("score"))).toEqual(["1", "2", "3", "4", "5"]);
    const shown = await get(links[3]!.url);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain('value="4" checked');
    expect(html).toContain("<textarea");
    expect(await ratingsOf(started)).toEqual([]);

    const token = tokenOf(links[3]!.url);
    expect((await post({ t: token, score: "4", comment: "Fast" })).status).toBe(201);
    expect((await post({ t: token, score: "5" })).status).toBe(409);
    expect((await ratingsOf(started)).map((row) => [row.score, row.comment])).toEqual([[4, "Fast"]]);
    const events = await (await db()).notificationEvent.count({ where: { type: "conversation.rated", subjectId: (await ratingsOf(started))[0]!.id } });
    expect(events).toBe(1); // the webhook event conversation.rated, written with the rating

    // Reopened: the old close's link is 409 while open and after the next close (a new link rates that one).
    expect((await operator(started, "reopen")).status).toBe(200);
    expect((await post({ t: token, score: "3" })).status).toBe(409);
    expect((await operator(started, "close")).status).toBe(200);
    expect((await post({ t: token, score: "3" })).status).toBe(409);
    expect((await post({ t: tokenOf((await linksOf(started))[0]!.url), score: "1" })).status).toBe(201);
    expect((await ratingsOf(started)).map((row) => row.score)).toEqual([4, 1]);
  });

  test("409 while the conversation is open", async () => {
    const started = await openConversation({ body: "Hello" });
    const [link] = await linksOf(started);
    expect((await post({ t: tokenOf(link!.url), score: "5" })).status).toBe(409);
    expect(await ratingsOf(started)).toEqual([]);
  });

  test("a forged or altered token, or a bad score, is 400 and records nothing", async () => {
    const started = await openConversation({ body: "Hello" });
    expect((await operator(started, "close")).status).toBe(200);
    const other = await openConversation({ body: "Other" });
    expect((await operator(other, "close")).status).toBe(200);
    const token = tokenOf((await linksOf(started))[0]!.url);
    const [payload, signature] = token.split(".");
    const otherPayload = tokenOf((await linksOf(other))[0]!.url).split(".")[0];
    for (const forged of ["", "abc", `${payload}.`, `${payload}.${signature!.slice(0, -2)}AA`, `${otherPayload}.${signature}`]) {
      expect((await post({ t: forged, score: "5" })).status).toBe(400);
      expect((await get(`http://localhost/api/v1/chat/rate?${new URLSearchParams({ t: forged, score: "5" })}`)).status).toBe(400);
    }
    for (const score of ["0", "6", "2.5", "", "five"]) expect((await post({ t: token, score })).status).toBe(400);
    expect((await post({ t: token, score: "5", comment: "x".repeat(1001) })).status).toBe(400);
    expect(await ratingsOf(started)).toEqual([]);
    expect(await ratingsOf(other)).toEqual([]);
  });
});

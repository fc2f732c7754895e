import { describe, expect, test } from "vitest";
import { api } from "../support/api";
import { createSite, ORIGIN } from "../support/fixtures";

// RATE_LIMITS=off turns every limit off, however small they are set.
process.env.RATE_LIMITS = "off";
process.env.RATE_LIMIT_STARTS_PER_MINUTE = "1";
process.env.RATE_LIMIT_VISITOR_PER_MINUTE = "1";

describe("RATE_LIMITS=off", () => {
  test("no request is limited and no X-RateLimit headers are sent", async () => {
    const site = await createSite();
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, body: {} }));
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201]);
    expect(responses.every((response) => response.headers.get("x-ratelimit-limit") === null)).toBe(true);
    const auth = { origin: ORIGIN, token: responses[0]!.json.result.visitor_token };
    for (let i = 0; i < 3; i++) expect((await api.get("/api/v1/chat/visitor/messages", auth)).status).toBe(200);
  });
});

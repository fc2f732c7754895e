import { beforeAll, describe, expect, test } from "vitest";
import { answerAsBot } from "../../lib/answers/bot";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN, staffReply, startConversation, visitor, type Started } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";

// The reports' side of answers (decisions.md, round 4, "Answers and the human handoff";
// docs/answers.md, "In the reports"): GET /api/v1/inbox/reports/questions (first visitor messages
// grouped, unanswered groups first) and GET /api/v1/inbox/reports/answers (the outcomes).

let owner: Staff;
let agent: Staff;
let siteId: string;
let other: string;
let shippingId: string;
let botId: string;
const started: Record<string, Started> = {};

const admin = (path: string, body?: unknown) => api.post(`/api/v1/admin/${path}`, { admin: true, body });
const questions = (query: string, staff: Staff = owner) => api.get(`/api/v1/inbox/reports/questions?${query}`, as(staff));
const outcomes = (query: string, staff: Staff = owner) => api.get(`/api/v1/inbox/reports/answers?${query}`, as(staff));

async function startAt(site: string, body: string, at: string): Promise<Started> {
  const conversation = await startConversation(site, { body, client_id: `c-${Math.random()}` });
  await (await db()).$executeRaw`UPDATE conversations SET created_at = ${new Date(at)} WHERE id = ${conversation.conversationId}`;
  return conversation;
}

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  siteId = (await createSite()).id;
  other = (await createSite()).id;
  botId = (await api.post("/api/v1/admin/members", { admin: true, body: { id: `bot-${siteId}`, name: "Botty", bot: true } })).json.result.id;
  const patched = await api.patch(`/api/v1/admin/sites/${siteId}`, { admin: true, body: { answers: "bot", team_member_ids: [botId], help_center: { enabled: true } } });
  expect(patched.status).toBe(200);
  const article = await admin("articles", { site_id: siteId, title: "How long does shipping take?", body: "Parcels leave within a day and arrive in three.", status: "published" });
  expect(article.status).toBe(201);
  shippingId = article.json.result.id;

  started.ship1 = await startAt(siteId, "How long does shipping take?", "2026-06-01T10:00:00Z");
  started.ship2 = await startAt(siteId, "how long does SHIPPING take", "2026-06-02T10:00:00Z");
  started.gift1 = await startAt(siteId, "Do you sell gift cards?", "2026-06-02T11:00:00Z");
  started.gift2 = await startAt(siteId, "do you sell gift cards", "2026-06-03T11:00:00Z");
  started.gift3 = await startAt(siteId, "Do you sell gift cards?", "2026-06-04T11:00:00Z");
  started.lamp = await startAt(siteId, "Is the lamp waterproof?", "2026-06-03T12:00:00Z");
  started.late = await startAt(siteId, "Do you sell gift cards?", "2026-07-01T12:00:00Z"); // out of the range
  started.elsewhere = await startAt(other, "Do you sell gift cards?", "2026-06-02T12:00:00Z"); // another site
  // A later visitor message is not a first message.
  expect((await api.post("/api/v1/chat/visitor/messages", { ...visitor(started.lamp), body: { body: "Do you sell gift cards?", client_id: "later" } })).status).toBe(201);
});

describe("GET /api/v1/inbox/reports/questions", () => {
  test("groups the range's first visitor messages by their words, the groups no article answers first, with counts and up to three examples", async () => {
    const response = await questions(`site=${siteId}&from=2026-06-01&to=2026-06-30`);
    expect(response.status).toBe(200);
    expect(response.json.result).toEqual({
      items: [
        { question: "Do you sell gift cards?", count: 3, examples: [started.gift3!.conversationId, started.gift2!.conversationId, started.gift1!.conversationId], article: null },
        { question: "Is the lamp waterproof?", count: 1, examples: [started.lamp!.conversationId], article: null },
        { question: "How long does shipping take?", count: 2, examples: [started.ship2!.conversationId, started.ship1!.conversationId], article: { id: shippingId, title: "How long does shipping take?" } },
      ],
    });
  });

  test("an article written for a question moves its group among the answered; drafts do not count", async () => {
    const draft = await admin("articles", { site_id: siteId, title: "Gift cards", body: "Yes, we sell gift cards.", status: "draft" });
    let items = (await questions(`site=${siteId}&from=2026-06-01&to=2026-06-30`)).json.result.items;
    expect(items[0]).toMatchObject({ question: "Do you sell gift cards?", article: null });
    await api.patch(`/api/v1/admin/articles/${draft.json.result.id}`, { admin: true, body: { status: "published" } });
    items = (await questions(`site=${siteId}&from=2026-06-01&to=2026-06-30`)).json.result.items;
    expect(items.map((item: { question: string }) => item.question)).toEqual(["Is the lamp waterproof?", "Do you sell gift cards?", "How long does shipping take?"]);
    expect(items[1].article).toEqual({ id: draft.json.result.id, title: "Gift cards" });
    await api.patch(`/api/v1/admin/articles/${draft.json.result.id}`, { admin: true, body: { status: "draft" } });
  });

  test("without a site, every site's questions, grouped per site", async () => {
    const items = (await questions("from=2026-06-01&to=2026-06-30")).json.result.items as { question: string; examples: string[] }[];
    const gifts = items.filter((item) => item.question === "Do you sell gift cards?");
    expect(gifts.map((item) => item.examples.length).sort()).toEqual([1, 3]);
  });

  test("owners only; an unknown site 404; a bad range 400; full-text operators are plain words", async () => {
    expectError(await questions(`site=${siteId}`, agent), 403, "forbidden");
    expectError(await api.get("/api/v1/inbox/reports/questions", as(null)), 401, "unauthorized");
    expectError(await questions("site=nope"), 404, "site_not_found");
    expectError(await questions("from=2026-06-10&to=2026-06-01"), 400, "invalid_request");
    expectError(await questions("member=x"), 400, "invalid_request");
    const odd = await startAt(siteId, "gifts & | ! <-> :* (", "2026-06-05T10:00:00Z");
    const items = (await questions(`site=${siteId}&from=2026-06-05&to=2026-06-05`)).json.result.items;
    expect(items).toEqual([{ question: "gifts & | ! <-> :* (", count: 1, examples: [odd.conversationId], article: null }]);
  });
});

describe("GET /api/v1/inbox/reports/answers", () => {
  test("counts the bot's answers, those closed without a person, handoffs, votes and model calls", async () => {
    const site = (await createSite()).id;
    const bot = (await api.post("/api/v1/admin/members", { admin: true, body: { id: `bot-${site}`, name: "Bot", bot: true } })).json.result.id;
    expect((await api.patch(`/api/v1/admin/sites/${site}`, { admin: true, body: { answers: "bot", team_member_ids: [bot], help_center: { enabled: true } } })).status).toBe(200);
    const article = (await admin("articles", { site_id: site, title: "Returns", body: "Returns are free within thirty days.", status: "published" })).json.result;
    const person = await createStaff("agent", "Pat Person");
    const ask = async () => {
      const conversation = await startConversation(site, { body: "Are returns free?", client_id: `c-${Math.random()}` });
      await answerAsBot(conversation.conversationId, "Are returns free?", 1);
      return conversation;
    };
    const resolved = await ask(); // answered and closed by the bot's answer alone
    expect((await admin(`conversations/${resolved.conversationId}/close`)).status).toBe(200);
    const personAnswered = await ask(); // a person replied too
    await staffReply(personAnswered.conversationId, person.id, "Yes, free.");
    expect((await admin(`conversations/${personAnswered.conversationId}/close`)).status).toBe(200);
    const handedOff = await ask(); // the visitor asked for a person
    expect((await api.post("/api/v1/chat/visitor/handoff", visitor(handedOff))).status).toBe(200);
    expect((await admin(`conversations/${handedOff.conversationId}/close`)).status).toBe(200);
    await startConversation(site, { body: "Hello?", client_id: "nothing" }); // nothing answered
    for (const [visitorId, helpful] of [["v1", true], ["v2", true], ["v3", false]] as const) {
      expect((await api.post(`/api/v1/chat/widget/${site}/articles/${article.id}/feedback`, { origin: ORIGIN, body: { helpful, visitor_id: visitorId } })).status).toBe(201);
    }
    const today = new Date().toISOString().slice(0, 10);
    await (await db()).modelUsage.create({ data: { siteId: site, day: new Date(`${today}T00:00:00Z`), calls: 4, promptTokens: 400, completionTokens: 90 } });

    const response = await outcomes(`site=${site}`);
    expect(response.status).toBe(200);
    expect(response.json.result).toMatchObject({
      site,
      conversations: 4,
      bot_answered: 3,
      bot_resolved: 1,
      handed_off: 1,
      feedback: { helpful: 2, not_helpful: 1 },
      model: { calls: 4, prompt_tokens: 400, completion_tokens: 90 },
    });
    expect((await outcomes(`site=${site}&from=2020-01-01&to=2020-01-31`)).json.result).toMatchObject({ conversations: 0, feedback: { helpful: 0, not_helpful: 0 }, model: { calls: 0 } });
    expectError(await outcomes(`site=${site}`, agent), 403, "forbidden");
    expectError(await outcomes("site=nope"), 404, "site_not_found");
  });
});

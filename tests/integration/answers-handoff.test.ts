import { beforeAll, describe, expect, test } from "vitest";
import { answerAsBot } from "../../lib/answers/bot";
import { bestAnswer, MAX_PASSAGE } from "../../lib/answers/best-answer";
import { HANDOFF_MESSAGE } from "../../lib/answers/handoff";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createMember, createSite, staffReply, startConversation, type Started } from "../support/fixtures";

// Answers and the human handoff (decisions.md, round 4): `sources` on every message, the handoff
// route (once per cycle, routed, the bot silent after it), and the bot's rules: only in `bot` mode,
// only above the threshold, always with sources, silent after a person's reply or a handoff, never
// silenced by an assignment. The bot is awaited here as the route runs it after its response.

const HANDOFF = "/api/v1/chat/visitor/handoff";
let siteId: string;
let botId: string;

const as = (started: Started) => ({ origin: started.origin, token: started.token });
const messages = async (started: Started) => (await api.get("/api/v1/chat/visitor/messages", as(started))).json.result.items as Record<string, any>[];
const fromBot = async (started: Started) => (await messages(started)).filter((m) => m.author_id === botId);
const send = (started: Started, body: string) => api.post("/api/v1/chat/visitor/messages", { ...as(started), body: { body, client_id: `c-${Math.random()}` } });

beforeAll(async () => {
  siteId = (await createSite()).id;
  const bot = await api.post("/api/v1/admin/members", { admin: true, body: { id: `bot-${siteId}`, name: "Botty", bot: true } });
  expect(bot.status).toBe(201);
  botId = bot.json.result.id;
  const patched = await api.patch(`/api/v1/admin/sites/${siteId}`, { admin: true, body: { answers: "bot", team_member_ids: [botId] } });
  expect(patched.status, JSON.stringify(patched.json)).toBe(200);
  const long = "Refunds are paid back to the card you used. ".repeat(30);
  for (const [slug, title, body] of [
    ["shipping", "How long does shipping take?", "Parcels leave within a day.\n\n## Abroad\n\nShipping abroad takes up to ten days."],
    ["refunds", "Refunds", `You get a refund within 30 days.\n\n${long}`],
  ]) {
    expect((await api.post("/api/v1/admin/articles", { admin: true, body: { site_id: siteId, title, body, slug, status: "published" } })).status).toBe(201);
  }
  expect((await api.post("/api/v1/admin/articles", { admin: true, body: { site_id: siteId, title: "Secret discount codes", body: "Draft: discount codes.", status: "draft" } })).status).toBe(201);
});

describe("sources on every message", () => {
  test("visitor and staff messages carry sources: [] in the visitor's and the staff's reads", async () => {
    const started = await startConversation(siteId, { body: "Hello there", client_id: "s1" });
    const member = await createMember();
    const sent = await staffReply(started.conversationId, member.id, "Hi!");
    expect(sent.sources).toEqual([]);
    expect((await messages(started)).map((m) => m.sources)).toEqual([[], []]);
    const staffRead = (await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true })).json.result.messages as { sources: unknown }[];
    expect(staffRead.map((m) => m.sources)).toEqual([[], []]);
  });
});

describe("the bot", () => {
  test("answers a covered question with a passage ≤ 600 characters, its link and its source; a draft is never a source", async () => {
    const started = await startConversation(siteId, { body: "How long does shipping abroad take?", client_id: "b1" });
    await answerAsBot(started.conversationId, "How long does shipping abroad take?", 10);
    const [answer] = await fromBot(started);
    expect(answer).toMatchObject({ author_type: "staff", sources: [{ title: "How long does shipping take?", url: `http://localhost:3000/help/${siteId}/en/shipping` }] });
    expect(answer!.body).toBe(`Shipping abroad takes up to ten days.\n\nHow long does shipping take?: http://localhost:3000/help/${siteId}/en/shipping`);
    const refund = await bestAnswer(siteId, "refund card");
    expect(refund!.passage.length).toBeLessThanOrEqual(MAX_PASSAGE);
    expect(refund!.passage.endsWith("…")).toBe(true);
    expect(await bestAnswer(siteId, "discount codes")).toBeNull();
  });

  test("below the threshold, with no words, or on a site not in bot mode: nothing", async () => {
    for (const question of ["Is the lamp waterproof?", "the", "!!!", "shipping to the moon on tuesday with a unicorn"]) {
      expect(await bestAnswer(siteId, question), question).toBeNull();
    }
    const off = (await createSite()).id;
    await api.post("/api/v1/admin/articles", { admin: true, body: { site_id: off, title: "Shipping", body: "Shipping takes a day.", status: "published" } });
    const started = await startConversation(off, { body: "shipping?", client_id: "o1" });
    await answerAsBot(started.conversationId, "shipping?", 10);
    expect((await messages(started)).map((m) => m.author_type)).toEqual(["visitor"]);
  });

  test("an assignment never silences it; a person's public reply does (a note does not)", async () => {
    const started = await startConversation(siteId, { body: "hello", client_id: "a1" });
    const person = await createMember();
    await api.post(`/api/v1/admin/conversations/${started.conversationId}/messages`, { admin: true, body: { author_id: person.id, body: "internal", kind: "note" } });
    await (await db()).conversation.update({ where: { id: started.conversationId }, data: { assignedMemberId: person.id } });
    await send(started, "How long does shipping take?");
    await answerAsBot(started.conversationId, "How long does shipping take?", 10);
    expect(await fromBot(started)).toHaveLength(1);
    await staffReply(started.conversationId, person.id, "I'm here.");
    await send(started, "How long does shipping take?");
    await answerAsBot(started.conversationId, "How long does shipping take?", 10);
    expect(await fromBot(started)).toHaveLength(1);
  });
});

describe("POST /api/v1/chat/visitor/handoff", () => {
  test("appends one public handoff line per cycle; the bot is silent after it; a reopen starts a new cycle", async () => {
    const started = await startConversation(siteId, { body: "hi", client_id: "h1" });
    const first = await api.post(HANDOFF, as(started));
    expect(first.status).toBe(200);
    expect(first.json.result).toBeNull();
    expect((await api.post(HANDOFF, as(started))).status).toBe(200);
    const lines = (await messages(started)).filter((m) => m.event === "handoff_requested");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ author_type: "system", body: HANDOFF_MESSAGE, sources: [] });
    await send(started, "How long does shipping take?");
    await answerAsBot(started.conversationId, "How long does shipping take?", 10);
    expect(await fromBot(started)).toEqual([]);

    expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true })).status).toBe(200);
    expectError(await api.post(HANDOFF, as(started)), 409, "conversation_closed");
    expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/reopen`, { admin: true })).status).toBe(200);
    await send(started, "How long does shipping take?");
    await answerAsBot(started.conversationId, "How long does shipping take?", 10);
    expect(await fromBot(started)).toHaveLength(1);
    expect((await api.post(HANDOFF, as(started))).status).toBe(200);
    expect((await messages(started)).filter((m) => m.event === "handoff_requested")).toHaveLength(2);
  });

  test("without a token 401", async () => {
    expectError(await api.post(HANDOFF, { origin: "https://shop.example" }), 401, "unauthorized");
  });
});

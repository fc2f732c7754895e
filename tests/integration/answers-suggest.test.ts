import { beforeAll, describe, expect, test } from "vitest";
import { answerAsBot, SHARED_BOT_ID } from "../../lib/answers/bot";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, startConversation, type Started } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";

// Without a model (no AI_BASE_URL: works offline): "Suggest a reply" drafts the best saved reply or
// article passage (decisions.md, round 4; docs/answers.md). Also the bot's member (never another
// site's bot) and the handoff taking a conversation from a bot to a person.

let owner: Staff;
let agent: Staff;
let siteId: string;
let shippingUrl: string;

const suggest = (started: Started, staff: Staff = agent) => api.post(`/api/v1/inbox/conversations/${started.conversationId}/suggest`, as(staff));
const staffMessages = async (conversationId: string) =>
  ((await api.get(`/api/v1/admin/conversations/${conversationId}`, { admin: true })).json.result.messages as Record<string, any>[]).filter((m) => m.author_type === "staff");

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  siteId = (await createSite()).id;
  const created = await api.post("/api/v1/admin/articles", {
    admin: true,
    body: { site_id: siteId, title: "How long does shipping take?", slug: "shipping", body: "Parcels leave within a day.\n\n## Abroad\n\nShipping abroad takes up to ten days.", status: "published" },
  });
  shippingUrl = created.json.result.url;
  const reply = await api.post("/api/v1/inbox/saved-replies", as(owner, { body: { scope: "team", shortcut: "gift", title: "Gift cards", body: "Hi {{visitor.name|there}}, gift cards are sold in the shop's checkout." } }));
  expect(reply.status).toBe(201);
});

describe("POST /api/v1/inbox/conversations/{id}/suggest without a model", () => {
  test("an article above the threshold: its passage and link, with the article as source; nothing is sent", async () => {
    const started = await startConversation(siteId, { body: "How long does shipping abroad take?", client_id: "s1" });
    const response = await suggest(started);
    expect(response.status).toBe(200);
    expect(response.json.result).toEqual({
      body: `Shipping abroad takes up to ten days.\n\nHow long does shipping take?: ${shippingUrl}`,
      sources: [{ article_id: expect.any(String), title: "How long does shipping take?", url: shippingUrl }],
    });
    expect(await staffMessages(started.conversationId)).toEqual([]);
  });

  test("a saved reply that holds more of the question: its body with placeholders filled, no sources", async () => {
    const started = await startConversation(siteId, { body: "Do you sell gift cards?", client_id: "s2", name: "Ada" });
    expect((await suggest(started)).json.result).toEqual({ body: "Hi Ada, gift cards are sold in the shop's checkout.", sources: [] });
  });

  test("nothing fits: an empty draft; the latest visitor message is the question", async () => {
    const started = await startConversation(siteId, { body: "How long does shipping abroad take?", client_id: "s3" });
    expect((await api.post("/api/v1/chat/visitor/messages", { origin: started.origin, token: started.token, body: { body: "Is the lamp waterproof?", client_id: "s3b" } })).status).toBe(201);
    expect((await suggest(started)).json.result).toEqual({ body: "", sources: [] });
  });

  test("an unknown conversation 404; without a session 401", async () => {
    expectError(await api.post("/api/v1/inbox/conversations/nope/suggest", as(agent)), 404, "conversation_not_found");
    expectError(await api.post("/api/v1/inbox/conversations/nope/suggest", as(null)), 401, "unauthorized");
  });
});

describe("the bot's member and the handoff", () => {
  test("a site whose chosen faces hold no bot answers as the shared bot, never another site's", async () => {
    const other = (await createSite()).id;
    const theirs = (await api.post("/api/v1/admin/members", { admin: true, body: { id: `bot-of-${other}`, name: "Theirs", bot: true } })).json.result.id;
    await api.patch(`/api/v1/admin/members/${theirs}`, { admin: true, body: { shown_in_widget: true } });
    expect((await api.patch(`/api/v1/admin/sites/${other}`, { admin: true, body: { team_member_ids: [theirs] } })).status).toBe(200);
    const mine = (await createSite()).id;
    expect((await api.patch(`/api/v1/admin/sites/${mine}`, { admin: true, body: { answers: "bot", team_member_ids: [agent.id] } })).status).toBe(200);
    await api.post("/api/v1/admin/articles", { admin: true, body: { site_id: mine, title: "Shipping", body: "Shipping takes three days.", status: "published" } });
    const started = await startConversation(mine, { body: "hello", client_id: "b1" });
    await answerAsBot(started.conversationId, "How long does shipping take?", 1);
    const answers = await staffMessages(started.conversationId);
    expect(answers.map((message) => message.author_id)).toEqual([SHARED_BOT_ID]);
  });

  test("the handoff gives a conversation a bot holds to a person (round robin)", async () => {
    const site = (await createSite()).id;
    expect((await api.patch(`/api/v1/admin/sites/${site}`, { admin: true, body: { answers: "bot", assignment: "round_robin" } })).status).toBe(200);
    const started = await startConversation(site, { body: "hello", client_id: "h1" });
    const prisma = await db();
    await prisma.member.upsert({ where: { id: SHARED_BOT_ID }, create: { id: SHARED_BOT_ID, name: "Answers", bot: true }, update: {} });
    await prisma.conversation.update({ where: { id: started.conversationId }, data: { assignedMemberId: SHARED_BOT_ID } });
    // The agent is the one person online; everyone else away.
    await prisma.member.updateMany({ data: { away: true } });
    await prisma.member.update({ where: { id: agent.id }, data: { away: false, inboxTabAt: new Date(), inboxInputAt: new Date() } });
    expect((await api.post("/api/v1/chat/visitor/handoff", { origin: started.origin, token: started.token })).status).toBe(200);
    expect((await prisma.conversation.findUniqueOrThrow({ where: { id: started.conversationId } })).assignedMemberId).toBe(agent.id);
  });
});

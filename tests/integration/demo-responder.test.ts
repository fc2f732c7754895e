import { beforeAll, describe, expect, test } from "vitest";
import { answerAsBot } from "../../lib/answers/bot";
import { DEMO_MEMBER_ID, demoOrigins, seedDemo } from "../../lib/seed/seed-demo";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { startConversation, type Started } from "../support/fixtures";

// The demo site (README, "The demo"): seeded with articles, `answers: bot` and its help center on,
// so the real bot (lib/answers) answers there — Mira, with a passage and its source — and steps
// back once a person replied or the visitor asked for one. Assignment never silences it.

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const as = (started: Started) => ({ origin: started.origin, token: started.token });
const messages = async (started: Started) => (await api.get("/api/v1/chat/visitor/messages", as(started))).json.result.items as Record<string, any>[];
const botReplies = async (started: Started) => (await messages(started)).filter((item) => item.author_id === DEMO_MEMBER_ID);

beforeAll(async () => {
  await seedDemo();
});

describe("the demo site", () => {
  test("allows the service's own origins, and seeding again keeps it working (articles seeded once)", async () => {
    await seedDemo();
    for (const origin of demoOrigins()) {
      const response = await api.post("/api/v1/chat/widget/demo/conversations", { origin, body: {} });
      expect(response.status).toBe(201);
    }
    const articles = (await api.get("/api/v1/admin/articles?site=demo", { admin: true })).json.result as { slug: string; status: string }[];
    expect(articles.map((a) => a.slug).sort()).toEqual(["price", "returns", "shipping"]);
    const site = ((await api.get("/api/v1/admin/sites", { admin: true })).json.result as { id: string; answers: string; help_center: { enabled: boolean } }[]).find((s) => s.id === "demo")!;
    expect(site).toMatchObject({ answers: "bot", help_center: { enabled: true } });
  });

  test("a question an article covers is answered by Mira: typing, then the passage with its source", async () => {
    const started = await startConversation("demo", { body: "How long does shipping take?", client_id: "d1" }, demoOrigins()[0]);
    const typing = await eventually(async () => {
      const entries = (await api.get("/api/v1/chat/visitor/presence", as(started))).json.result;
      return entries.find((entry: { typing: boolean }) => entry.typing);
    });
    expect(typing).toMatchObject({ actor_id: DEMO_MEMBER_ID, author_type: "staff" });
    const reply = await eventually(async () => (await botReplies(started))[0]);
    expect(reply).toMatchObject({
      author_name: "Mira from Lumen & Co.",
      author_avatar: `/api/v1/chat/visitor/avatars/${DEMO_MEMBER_ID}`,
      sources: [{ article_id: "art_demo_shipping", title: "How long does shipping take?", url: "http://localhost:3000/help/demo/en/shipping" }],
    });
    expect(reply.body).toMatch(/^Orders leave our warehouse within one business day/);
    expect(reply.body).toContain("http://localhost:3000/help/demo/en/shipping");

    await api.post("/api/v1/chat/visitor/messages", { ...as(started), body: { body: "And can I get a refund?", client_id: "d2" } });
    const second = await eventually(async () => (await botReplies(started))[1]);
    expect(second.sources.map((source: { article_id: string }) => source.article_id)).toEqual(["art_demo_returns"]);
    expect(second.body).toMatch(/30 days/);
  });

  test("a question no article covers gets no bot answer", async () => {
    const started = await startConversation("demo", { body: "Do you have a shop in Paris?", client_id: "n1" }, demoOrigins()[0]);
    await answerAsBot(started.conversationId, "Do you have a shop in Paris?", 10); // as the route does, awaited here
    expect(await botReplies(started)).toEqual([]);
  });

  test("once a person has replied, Mira stops answering in that cycle", async () => {
    const started = await startConversation("demo", { body: "How much is shipping?", client_id: "h1" }, demoOrigins()[0]);
    await eventually(async () => (await botReplies(started))[0]);
    await api.post("/api/v1/admin/members", { admin: true, body: { id: "human", name: "Hu Man" } });
    const human = await api.post(`/api/v1/admin/conversations/${started.conversationId}/messages`, { admin: true, body: { author_id: "human", body: "I'm a real person, taking over." } });
    expect(human.status).toBe(201);
    await api.post("/api/v1/chat/visitor/messages", { ...as(started), body: { body: "What does the lamp cost?", client_id: "h2" } });
    await answerAsBot(started.conversationId, "What does the lamp cost?", 10);
    expect((await messages(started)).at(-1)).toMatchObject({ author_type: "visitor", body: "What does the lamp cost?" });
    expect(await botReplies(started)).toHaveLength(1);
  });

  test("Mira is a bot in staff reads; an assignment to a person does not silence her", async () => {
    const members = (await api.get("/api/v1/admin/members", { admin: true })).json.result;
    expect(members.find((member: { id: string }) => member.id === DEMO_MEMBER_ID)).toMatchObject({ bot: true, name: "Mira from Lumen & Co." });
    const started = await startConversation("demo", { body: "What does the lamp cost?", client_id: "b1" }, demoOrigins()[0]);
    await eventually(async () => (await botReplies(started))[0]);
    const read = (await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true })).json.result;
    expect(read.messages.map((message: { author_type: string; author_bot: boolean }) => [message.author_type, message.author_bot])).toEqual([
      ["visitor", false],
      ["staff", true],
    ]);
    await api.post("/api/v1/admin/members", { admin: true, body: { id: "assignee", name: "As Signee" } });
    await (await db()).conversation.update({ where: { id: started.conversationId }, data: { assignedMemberId: "assignee" } });
    await api.post("/api/v1/chat/visitor/messages", { ...as(started), body: { body: "How long does shipping take?", client_id: "b2" } });
    await answerAsBot(started.conversationId, "How long does shipping take?", 10);
    expect((await botReplies(started)).length).toBeGreaterThanOrEqual(2);
  });
});

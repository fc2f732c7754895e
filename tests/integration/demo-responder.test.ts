import { beforeAll, describe, expect, test } from "vitest";
import { answerAsDemoAgent, demoAnswer } from "../../lib/demo/demo-responder";
import { DEMO_MEMBER_ID, demoOrigins, seedDemo } from "../../lib/seed/seed-demo";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { createSite, startConversation, type Started } from "../support/fixtures";

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 6_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const as = (started: Started) => ({ origin: started.origin, token: started.token });

beforeAll(async () => {
  await seedDemo();
});

describe("the demo site", () => {
  test("allows the service's own origins, and seeding again keeps it working", async () => {
    await seedDemo();
    for (const origin of demoOrigins()) {
      const response = await api.post("/api/v1/chat/widget/demo/conversations", { origin, body: {} });
      expect(response.status).toBe(201);
    }
  });

  test("every visitor message is answered: the demo agent types, then replies with name and picture", async () => {
    const started = await startConversation("demo", { body: "How much is shipping?", client_id: "d1" }, demoOrigins()[0]);
    const typing = await eventually(async () => {
      const entries = (await api.get("/api/v1/chat/visitor/presence", as(started))).json.result;
      return entries.find((entry: { typing: boolean }) => entry.typing);
    });
    expect(typing).toMatchObject({ actor_id: DEMO_MEMBER_ID, author_type: "staff" });

    const reply = await eventually(async () => {
      const items = (await api.get("/api/v1/chat/visitor/messages", as(started))).json.result.items;
      return items.find((item: { author_type: string }) => item.author_type === "staff");
    });
    expect(reply).toMatchObject({
      author_id: DEMO_MEMBER_ID,
      author_name: "Mira from Lumen & Co.",
      author_avatar: `/api/v1/chat/visitor/avatars/${DEMO_MEMBER_ID}`,
      body: demoAnswer("How much is shipping?"),
    });
    const picture = await api.get(`/api/v1/chat/visitor/avatars/${DEMO_MEMBER_ID}`, as(started));
    expect(picture.json.result.content_type).toBe("image/png");

    await api.post("/api/v1/chat/visitor/messages", { ...as(started), body: { body: "And returns?", client_id: "d2" } });
    const second = await eventually(async () => {
      const items = (await api.get("/api/v1/chat/visitor/messages?cursor=2", as(started))).json.result.items;
      return items.find((item: { author_type: string }) => item.author_type === "staff");
    });
    expect(second.body).toBe(demoAnswer("returns"));
  });

  test("once a human staff member has replied, the demo agent stops answering", async () => {
    const started = await startConversation("demo", { body: "hello", client_id: "h1" }, demoOrigins()[0]);
    await eventually(async () => {
      const items = (await api.get("/api/v1/chat/visitor/messages", as(started))).json.result.items;
      return items.find((item: { author_type: string }) => item.author_type === "staff");
    });
    await api.post("/api/v1/admin/members", { admin: true, body: { id: "human", name: "Hu Man" } });
    const human = await api.post(`/api/v1/admin/conversations/${started.conversationId}/messages`, {
      admin: true,
      body: { author_id: "human", body: "I'm a real person, taking over." },
    });
    expect(human.status).toBe(201);
    await api.post("/api/v1/chat/visitor/messages", { ...as(started), body: { body: "Great, what about shipping?", client_id: "h2" } });
    await answerAsDemoAgent(started.conversationId, "Great, what about shipping?", 10); // as the route would, awaited here
    const items = (await api.get("/api/v1/chat/visitor/messages", as(started))).json.result.items;
    expect(items.at(-1)).toMatchObject({ author_type: "visitor", body: "Great, what about shipping?" });
    expect(items.filter((item: { author_id: string }) => item.author_id === DEMO_MEMBER_ID)).toHaveLength(1);
  });

  test("the demo agent is a bot: staff reads mark its messages; once the conversation is assigned to a person, it stays quiet", async () => {
    const members = (await api.get("/api/v1/admin/members", { admin: true })).json.result;
    expect(members.find((member: { id: string }) => member.id === DEMO_MEMBER_ID)).toMatchObject({ bot: true, name: "Mira from Lumen & Co." });

    const started = await startConversation("demo", { body: "hello", client_id: "b1" }, demoOrigins()[0]);
    await eventually(async () => {
      const items = (await api.get("/api/v1/chat/visitor/messages", as(started))).json.result.items;
      return items.find((item: { author_type: string }) => item.author_type === "staff");
    });
    const read = (await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true })).json.result;
    expect(read.messages.map((message: { author_type: string; author_bot: boolean }) => [message.author_type, message.author_bot])).toEqual([
      ["visitor", false],
      ["staff", true],
    ]);

    await api.post("/api/v1/admin/members", { admin: true, body: { id: "assignee", name: "As Signee" } });
    const owner = await db();
    await owner.conversation.update({ where: { id: started.conversationId }, data: { assignedMemberId: "assignee" } });
    await api.post("/api/v1/chat/visitor/messages", { ...as(started), body: { body: "Still there?", client_id: "b2" } });
    await answerAsDemoAgent(started.conversationId, "Still there?", 10); // as the route would, awaited here
    const items = (await api.get("/api/v1/chat/visitor/messages", as(started))).json.result.items;
    expect(items.filter((item: { author_id: string }) => item.author_id === DEMO_MEMBER_ID)).toHaveLength(1);
  });

  test("answers match the question asked", () => {
    expect(demoAnswer("How much is shipping?")).toBe("Shipping is free on orders over $50; below that it's a flat $5.95.");
    expect(demoAnswer("How long does shipping take?")).toMatch(/arrive in 3–5 days/);
    expect(demoAnswer("What does the lamp cost?")).toMatch(/\$89/);
    expect(demoAnswer("Can I get a refund?")).toMatch(/30 days/);
    expect(demoAnswer("Hello!")).toMatch(/I'm Mira/);
  });

  test("the typing entry names the agent who then replies", async () => {
    const started = await startConversation("demo", { body: "Hello", client_id: "n1" }, demoOrigins()[0]);
    const typing = await eventually(async () => {
      const entries = (await api.get("/api/v1/chat/visitor/presence", as(started))).json.result;
      return entries.find((entry: { typing: boolean }) => entry.typing);
    });
    expect(typing).toMatchObject({ actor_id: DEMO_MEMBER_ID, author_name: "Mira from Lumen & Co." });
  });

  test("other sites get no automatic answers", async () => {
    const site = await createSite();
    const started = await startConversation(site.id, { body: "hello?", client_id: "x" });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const items = (await api.get("/api/v1/chat/visitor/messages", as(started))).json.result.items;
    expect(items.map((item: { author_type: string }) => item.author_type)).toEqual(["visitor"]);
  });
});

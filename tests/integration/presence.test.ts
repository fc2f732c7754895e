import { describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { createMember, openConversation, visitor, type Started } from "../support/fixtures";
import { expectError } from "../support/expectations";

const presence = (started: Started, query = "") => api.get(`/api/v1/chat/visitor/presence${query}`, visitor(started));
const staffTyping = (conversationId: string, actorId: string, typing: boolean) =>
  api.post(`/api/v1/admin/conversations/${conversationId}/presence`, { admin: true, body: { actor_id: actorId, typing } });

describe("typing presence", () => {
  test("staff typing shows for 10 s, as an entry of author_type staff", async () => {
    const started = await openConversation();
    const staff = await createMember();
    expect((await presence(started)).json.result).toEqual([]);
    expect((await staffTyping(started.conversationId, staff.id, true)).status).toBe(200);
    const { status, json } = await presence(started);
    expect(status).toBe(200);
    expect(json.result).toHaveLength(1);
    expect(json.result[0]).toMatchObject({
      conversation_id: started.conversationId,
      actor_id: staff.id,
      author_type: "staff",
      typing: true,
    });
    const expiresIn = new Date(json.result[0].expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(8_000);
    expect(expiresIn).toBeLessThanOrEqual(10_000);
  });

  test("staff can say they stopped typing", async () => {
    const started = await openConversation();
    const staff = await createMember();
    await staffTyping(started.conversationId, staff.id, true);
    await staffTyping(started.conversationId, staff.id, false);
    expect((await presence(started)).json.result).toMatchObject([{ actor_id: staff.id, typing: false }]);
  });

  test("an expired entry is gone", async () => {
    const started = await openConversation();
    const staff = await createMember();
    await staffTyping(started.conversationId, staff.id, true);
    await (await db()).presence.updateMany({ where: { conversationId: started.conversationId }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await presence(started)).json.result).toEqual([]);
  });

  test("?typing=true records the visitor's own entry, which staff see and the visitor does not", async () => {
    const started = await openConversation();
    expect((await presence(started, "?typing=true")).json.result).toEqual([]);
    const conversation = (await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true })).json.result;
    const rows = await (await db()).presence.findMany({ where: { conversationId: started.conversationId } });
    expect(rows).toMatchObject([{ actorId: conversation.visitor_id, authorType: "visitor", typing: true }]);
    await presence(started, "?typing=false");
    expect((await (await db()).presence.findMany({ where: { conversationId: started.conversationId } }))[0]!.typing).toBe(false);
  });

  test("presence of another conversation never shows", async () => {
    const mine = await openConversation();
    const theirs = await openConversation();
    const staff = await createMember();
    await staffTyping(theirs.conversationId, staff.id, true);
    expect((await presence(mine)).json.result).toEqual([]);
  });

  test.each(["?typing=yes", "?typing=1", "?typing=", "?other=1"])("query %s → 400 invalid_request", async (query) => {
    const started = await openConversation();
    expectError(await presence(started, query), 400, "invalid_request");
  });

  test("operator presence needs a known conversation and member", async () => {
    const started = await openConversation();
    const staff = await createMember();
    expectError(await staffTyping("no-such-conversation", staff.id, true), 404, "conversation_not_found");
    expectError(await staffTyping(started.conversationId, "no-such-member", true), 404, "member_not_found");
  });
});

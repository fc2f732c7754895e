import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { api } from "../support/api";
import { createMember, openConversation, PNG_BASE64, staffReply, visitor, type Started } from "../support/fixtures";
import { expectError } from "../support/expectations";

const picture = (started: Started, userId: string) =>
  api.get(`/api/v1/chat/visitor/avatars/${encodeURIComponent(userId)}`, visitor(started));

describe("member pictures", () => {
  test("a member who replied here: content type, base64 bytes and a content-hash tag", async () => {
    const started = await openConversation();
    const staff = await createMember();
    await staffReply(started.conversationId, staff.id);
    const { status, json } = await picture(started, staff.id);
    expect(status).toBe(200);
    expect(json.result).toEqual({
      content_type: "image/png",
      bytes: PNG_BASE64,
      tag: createHash("sha256").update(Buffer.from(PNG_BASE64, "base64")).digest("hex"),
    });
  });

  test("the tag changes exactly when the picture changes", async () => {
    const started = await openConversation();
    const staff = await createMember();
    await staffReply(started.conversationId, staff.id);
    const before = (await picture(started, staff.id)).json.result.tag;
    await api.patch(`/api/v1/admin/members/${staff.id}`, { admin: true, body: { name: "Renamed" } });
    expect((await picture(started, staff.id)).json.result.tag).toBe(before);
    const gif = Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1").toString("base64");
    await api.patch(`/api/v1/admin/members/${staff.id}`, { admin: true, body: { avatar: { content_type: "image/gif", bytes: gif } } });
    const after = (await picture(started, staff.id)).json.result;
    expect(after.tag).not.toBe(before);
    expect(after.content_type).toBe("image/gif");
  });

  test.each([
    ["an unknown member", async () => "no-such-member"],
    ["a member who has not replied here", async () => (await createMember()).id],
  ])("%s → 404 member_not_found", async (_name, memberId) => {
    const started = await openConversation();
    expectError(await picture(started, await memberId()), 404, "member_not_found");
  });

  test("a member who replied only in another conversation is not readable here (BOLA)", async () => {
    const mine = await openConversation();
    const theirs = await openConversation();
    const staff = await createMember();
    await staffReply(theirs.conversationId, staff.id);
    expectError(await picture(mine, staff.id), 404, "member_not_found");
  });

  test("a member who only left a note is not readable", async () => {
    const started = await openConversation();
    const staff = await createMember();
    await staffReply(started.conversationId, staff.id, "private", "note");
    expectError(await picture(started, staff.id), 404, "member_not_found");
  });

  test("a member without a picture is 404 too", async () => {
    const started = await openConversation();
    const staff = await createMember({ picture: false });
    await staffReply(started.conversationId, staff.id);
    expectError(await picture(started, staff.id), 404, "member_not_found");
  });

  test("a user id over 100 characters is 400; authentication comes first", async () => {
    const started = await openConversation();
    expectError(await picture(started, "u".repeat(101)), 400, "invalid_request");
    expectError(await api.get(`/api/v1/chat/visitor/avatars/${"u".repeat(101)}`, { origin: started.origin }), 401, "unauthorized");
  });
});

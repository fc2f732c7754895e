import { beforeAll, expect, test } from "vitest";
import { serviceSigningSecret } from "../../secrets/signing-secret";
import { replyToken, verifyReplyToken, type ReplyBinding } from "./reply-token";

// The reply address's token (decisions.md "Email in both directions"): it proves exactly the
// binding it was made for, and nothing else.

// The signing secret is made (and sealed into this file's database) once, before the tests.
beforeAll(async () => {
  await serviceSigningSecret();
});

const conversation: ReplyBinding = { thread: { kind: "conversation", id: "6f1c2a9e-0b7d-4c35-9a8e-2f4b6d1e3c5a" }, recipient: { kind: "visitor" } };
const member: ReplyBinding = { thread: { kind: "ticket", id: "ticket-42" }, recipient: { kind: "member", id: "grace.hopper" } };

test("a token proves its binding, in any letter case (mail systems may fold a local part)", async () => {
  for (const binding of [conversation, member]) {
    const token = await replyToken(binding);
    expect(token).toMatch(/^[a-z2-7]+$/);
    expect(await verifyReplyToken(token)).toEqual(binding);
    expect(await verifyReplyToken(token.toUpperCase())).toEqual(binding);
  }
  expect((await replyToken(conversation)).length).toBe(44);
});

test("every one-character change of a token is refused", async () => {
  const token = await replyToken(member);
  for (let at = 0; at < token.length; at++) {
    for (const replacement of ["a", "z", "2", "7"]) {
      if (token[at] === replacement) continue;
      expect(await verifyReplyToken(token.slice(0, at) + replacement + token.slice(at + 1))).toBeNull();
    }
  }
  expect(await verifyReplyToken(token.slice(0, -1))).toBeNull();
  expect(await verifyReplyToken(`${token}a`)).toBeNull();
  expect(await verifyReplyToken("")).toBeNull();
  expect(await verifyReplyToken("not base32!")).toBeNull();
});

test("one thread's token says nothing about another's", async () => {
  const other = await replyToken({ ...conversation, thread: { kind: "conversation", id: "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b" } });
  const mine = await replyToken(conversation);
  expect(other.slice(-16)).not.toBe(mine.slice(-16));
  expect(await verifyReplyToken(mine.slice(0, -16) + other.slice(-16))).toBeNull();
});

// @vitest-environment happy-dom
import { beforeEach, expect, test, vi } from "vitest";
import type { Message } from "../../widget/src/shared/message";
import { testBoot } from "./boot";

// This browser's conversations, as stored for returning visitors ("parley:<site>:h"): the stored
// keys stay the one-letter ones browsers already hold.

const LIST = "parley:site_1:h";
const load = async () => {
  const { session } = await import("../../widget/src/shared/session");
  session.start(testBoot());
  return { session, ...(await import("../../widget/src/panel/recent")) };
};
const message = (sequence: number, body: string, extra: Partial<Message> = {}): Message => ({
  sequence,
  conversation_id: "c1",
  client_id: `m${sequence}`,
  author_id: "staff_1",
  author_type: "staff",
  body,
  created_at: new Date(Date.UTC(2026, 0, 1, 10, sequence)).toISOString(),
  author_name: "Olivia",
  author_avatar: null,
  attachments: [],
  ...extra,
});

beforeEach(() => {
  vi.resetModules();
  localStorage.clear();
});

test("nothing is kept before the visitor has a conversation", async () => {
  const { keepMessage, recent } = await load();
  keepMessage(message(1, "Hello"));
  expect(recent()).toEqual([]);
  expect(localStorage.getItem(LIST)).toBeNull();
});

test("the current conversation is kept with its token, then its last message's preview", async () => {
  const { session, keepCurrent, keepMessage, recent } = await load();
  session.replace({ t: "vt_1", x: Date.now() + 864e5, c: "c1" });
  keepCurrent();
  keepMessage(message(2, "A warm white bulb is in the box."));
  keepMessage(message(1, "an older message replayed"));
  const [kept] = JSON.parse(localStorage.getItem(LIST)!);
  expect(kept).toMatchObject({ c: "c1", t: "vt_1", q: 2, b: "A warm white bulb is in the box.", a: "staff", f: 0, e: 0 });
  expect(recent()).toHaveLength(1);
});

test("a close is kept as its event, not as the server's sentence", async () => {
  const { session, keepCurrent, keepMessage } = await load();
  session.replace({ t: "vt_1", x: Date.now() + 864e5, c: "c1" });
  keepCurrent();
  keepMessage(message(3, "This conversation was closed.", { author_type: "system", event: "conversation_closed" }));
  const [kept] = JSON.parse(localStorage.getItem(LIST)!);
  expect(kept.v).toBe("conversation_closed");
  expect(kept.b).toBeUndefined();
});

test("expired tokens are not listed and a refused conversation is dropped", async () => {
  const { keep, dropRecent, recent } = await load();
  keep({ c: "old", t: "vt_old", x: Date.now() - 1, u: 1 });
  keep({ c: "c1", t: "vt_1", x: Date.now() + 1e6, u: 2 });
  keep({ c: "c2", t: "vt_2", x: Date.now() + 1e6, u: 3 });
  expect(recent().map((kept) => kept.c)).toEqual(["c2", "c1"]);
  dropRecent("c2");
  expect(recent().map((kept) => kept.c)).toEqual(["c1"]);
});

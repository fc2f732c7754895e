// @vitest-environment happy-dom
import { beforeEach, expect, test, vi } from "vitest";
import type { Message } from "../../widget/src/shared/message";
import { testBoot } from "./boot";

// The thread: rows in sequence order, a visitor's unsent row at the end, one author's rows grouped,
// a close shown in the widget's own words.

const message = (sequence: number, body: string, extra: Partial<Message> = {}): Message => ({
  sequence,
  conversation_id: "c1",
  client_id: `m${sequence}`,
  author_id: "staff_1",
  author_type: "staff",
  body,
  created_at: "2026-01-01T10:00:00.000Z",
  author_name: "Olivia",
  author_avatar: null,
  attachments: [],
  ...extra,
});

async function thread() {
  vi.resetModules();
  localStorage.clear();
  const { session } = await import("../../widget/src/shared/session");
  session.start(testBoot());
  session.replace({ t: "vt_1", x: Date.now() + 864e5, c: "c1" });
  const messages = await import("../../widget/src/panel/messages");
  const list = document.createElement("div");
  const greeting = document.createElement("div");
  list.append(greeting);
  messages.initMessages({ ls: list, e0: greeting });
  messages.nextGeneration();
  const texts = () => Array.from(list.querySelectorAll(".m .tx")).map((el) => el.textContent);
  return { ...messages, list, greeting, texts };
}

beforeEach(() => document.body.replaceChildren());

test("rows are placed by sequence whatever order they arrive in; the greeting gives way", async () => {
  const { add, texts, greeting } = await thread();
  expect(add(message(2, "second"))).toBe(true);
  expect(add(message(1, "first"))).toBe(true);
  expect(add(message(3, "third"))).toBe(true);
  expect(texts()).toEqual(["first", "second", "third"]);
  expect(greeting.hidden).toBe(true);
});

test("a message seen again is not new, and one of another conversation is not shown", async () => {
  const { add, texts } = await thread();
  add(message(1, "once"));
  expect(add(message(1, "once"))).toBe(false);
  expect(add(message(2, "elsewhere", { conversation_id: "c2" }))).toBe(false);
  expect(texts()).toEqual(["once"]);
});

test("a visitor's row not yet sent stays after every sent one", async () => {
  const { add, place, row, texts } = await thread();
  place(row("visitor", "still sending"));
  add(message(1, "from staff"));
  expect(texts()).toEqual(["from staff", "still sending"]);
});

test("one author's consecutive rows form a group; a system line breaks it", async () => {
  const { add, list } = await thread();
  add(message(1, "one"));
  add(message(2, "two"));
  add(message(3, "This conversation was closed.", { author_type: "system", event: "conversation_closed", author_id: "system" }));
  add(message(4, "three"));
  const rows = Array.from(list.querySelectorAll<HTMLElement>(".m"));
  expect(rows.map((el) => el.classList.contains("g"))).toEqual([false, true, false, false]);
  expect(rows[2]!.querySelector(".tx")!.textContent).toBe("Closed"); // the card below says the sentence
});

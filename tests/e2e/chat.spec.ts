import type { Route } from "@playwright/test";
import { conversations, onlyConversation, staffSays, staffTyping } from "./support/admin";
import { STAFF } from "./support/env";
import { expect, screenshot, test, Widget } from "./support/fixtures";
import { gracePicture } from "./support/png";

test("the first message starts a conversation; a staff reply shows with name and picture; staff typing comes and goes", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await expect(widget.launcher).toBeVisible();
  await expect(widget.launcher).toHaveAccessibleName("Open chat");
  await screenshot(page, "01-launcher-closed", { x: 880, y: 520, width: 400, height: 200 });
  expect(await conversations(site.id)).toHaveLength(0);

  await widget.open();
  await expect(widget.input).toBeFocused();
  await widget.said("Hello! Where is my order #1042?");
  const conversation = await onlyConversation(site.id);
  expect(conversation.last_sequence).toBe(1);

  // Typing before the member has written: presence names them all the same.
  await staffTyping(conversation.id, STAFF.id, true);
  await expect(widget.typing).toHaveText(`${STAFF.name} is typing…`);
  await expect(widget.typing.locator(".dt i")).toHaveCount(3); // the animated dots (text-free, aria-hidden)
  await staffTyping(conversation.id, STAFF.id, false);
  await expect(widget.typing).toHaveText("");

  await staffSays(conversation.id, STAFF.id, "Hi! I'm Grace. It left our warehouse this morning.");
  const reply = widget.message("Hi! I'm Grace. It left our warehouse this morning.");
  await expect(reply).toBeVisible();
  await expect(reply.locator(".nm")).toHaveText(STAFF.name);
  await expect(reply.locator(".av img")).toHaveAttribute("src", `data:image/png;base64,${gracePicture().toString("base64")}`);
  await expect(widget.message("Hello! Where is my order #1042?").locator(".nm")).toHaveText("You");

  // Now the name is known; a new staff message ends the typing indicator at once.
  await staffTyping(conversation.id, STAFF.id, true);
  await expect(widget.typing).toHaveText(`${STAFF.name} is typing…`);
  await staffSays(conversation.id, STAFF.id, "It should arrive on Thursday.");
  await expect(widget.message("It should arrive on Thursday.")).toBeVisible();
  await expect(widget.typing).toHaveText("");
  await widget.input.fill("Great, thank you");
  await widget.input.blur();
  await screenshot(page, "02-chat-staff-reply", { x: 860, y: 0, width: 420, height: 720 });
});

test("replies come by long-poll the moment they are stored; staff typing rides it while the panel is open", async ({ page, site, widget }) => {
  const polls: { search: string; at: number }[] = [];
  const presenceReads: number[] = []; // GET /presence without ?typing= (the visitor's own typing is a write)
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/v1/chat/visitor/messages" && request.method() === "GET") polls.push({ search: url.search, at: Date.now() });
    if (url.pathname === "/api/v1/chat/visitor/presence" && !url.searchParams.has("typing")) presenceReads.push(Date.now());
  });

  await page.goto(site.url);
  await widget.open();
  await widget.said("Is anyone there?");
  const conversation = await onlyConversation(site.id);
  await expect.poll(() => polls.some((poll) => /&wait=25&presence=\d+$/.test(poll.search))).toBe(true);

  // Closed panel: the long-poll goes on (the reply shows as unread), without typing.
  await widget.launcher.click();
  await expect(widget.panel).toBeHidden();
  await page.waitForTimeout(1_500);
  const closedAt = Date.now();
  const sentAt = Date.now();
  await staffSays(conversation.id, STAFF.id, "Yes — how can I help?");
  await expect(widget.badge).toHaveText("1", { timeout: 10_000 });
  // The reply came on the request that was already held when it was stored: at most the next
  // held poll has started since (a short-polling widget would have needed a new request).
  expect(polls.filter((poll) => poll.at >= sentAt).length, "the reply answered a held poll").toBeLessThanOrEqual(1);
  const whileClosed = polls.filter((poll) => poll.at >= closedAt);
  expect(whileClosed.every((poll) => /^\?cursor=\d+&limit=50&wait=25$/.test(poll.search)), whileClosed.map((poll) => poll.search).join(" ")).toBe(true);

  // Open again: the message is read, the badge goes, and a poll asks for typing anew (presence=0).
  const openedAt = Date.now();
  await widget.open();
  await expect(widget.message("Yes — how can I help?")).toBeVisible();
  await expect(widget.badge).toBeHidden();
  await expect.poll(() => polls.some((poll) => poll.at >= openedAt && /&wait=25&presence=0$/.test(poll.search))).toBe(true);
  // Staff typing answers the held poll; stopping answers it again.
  await staffTyping(conversation.id, STAFF.id, true);
  await expect(widget.typing).toHaveText(`${STAFF.name} is typing…`);
  await staffTyping(conversation.id, STAFF.id, false);
  await expect(widget.typing).toHaveText("");
  await page.waitForTimeout(3_500);
  expect(presenceReads, "no presence reads: typing comes with the long-poll").toEqual([]);
});

// An older service: its answers have no `presence` field, or its strict query refuses the parameter.
const olderServices = {
  "answers no presence": async (route: Route) => {
    const response = await route.fetch();
    const envelope = await response.json();
    if (envelope?.result) delete envelope.result.presence;
    await route.fulfill({ response, json: envelope });
  },
  "refuses the parameter": async (route: Route) => {
    if (!new URL(route.request().url()).searchParams.has("presence")) return route.continue();
    await route.fulfill({ status: 400, json: { success: false, result: { code: "invalid_request" }, message: "Unknown query parameter." } });
  },
};

for (const [name, answer] of Object.entries(olderServices)) {
  test(`a service whose long-poll ${name}: the open widget reads presence every 3 s`, async ({ page, site, widget }) => {
    const presenceReads: number[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/v1/chat/visitor/presence" && !url.searchParams.has("typing")) presenceReads.push(Date.now());
    });
    await page.route(/\/api\/v1\/chat\/visitor\/messages\?/, (route) => (route.request().method() === "GET" ? answer(route) : route.continue()));

    await page.goto(site.url);
    await widget.open();
    await widget.said("Is anyone there?");
    const conversation = await onlyConversation(site.id);
    await staffTyping(conversation.id, STAFF.id, true);
    await expect(widget.typing).toHaveText(`${STAFF.name} is typing…`);
    const from = presenceReads.length;
    await expect.poll(() => presenceReads.length - from, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    const reads = presenceReads.slice(from);
    const gaps = reads.slice(1).map((at, i) => at - reads[i]!);
    expect(gaps.every((gap) => gap >= 2_500), `gaps between presence reads: ${gaps.join(", ")} ms`).toBe(true);
    await page.unrouteAll({ behavior: "ignoreErrors" }); // the poll held at the end
  });
}

test("reload keeps the conversation, and a second tab shows the same messages", async ({ context, page, site, widget }) => {
  await page.goto(site.url);
  await widget.open();
  await widget.said("First question");
  const conversation = await onlyConversation(site.id);
  await staffSays(conversation.id, STAFF.id, "First answer");
  await expect(widget.message("First answer")).toBeVisible();

  await page.reload();
  await widget.open();
  await expect(widget.messages).toHaveCount(2);
  await expect(widget.messages.nth(0)).toContainText("First question");
  await expect(widget.messages.nth(1)).toContainText("First answer");

  const second = await context.newPage();
  const other = new Widget(second);
  await second.goto(site.url);
  await other.open();
  await expect(other.messages).toHaveCount(2);
  await expect(other.messages.nth(1)).toContainText("First answer");

  // Both tabs follow the one conversation: a message from either and staff's reply show in both.
  await other.said("Second question, from the other tab");
  await staffSays(conversation.id, STAFF.id, "Second answer");
  for (const view of [widget, other]) {
    await expect(view.message("Second question, from the other tab")).toBeVisible();
    await expect(view.message("Second answer")).toBeVisible();
    await expect(view.messages).toHaveCount(4);
  }
  expect(await conversations(site.id)).toHaveLength(1);
});

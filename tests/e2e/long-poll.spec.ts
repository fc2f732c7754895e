import type { Page, Request } from "@playwright/test";
import { onlyConversation, staffSays } from "./support/admin";
import { STAFF } from "./support/env";
import { expect, test } from "./support/fixtures";
import { setHidden } from "./support/page-visibility";

/**
 * The message polls the page sends, with how each one ended. `search` is the query without
 * `presence` (staff typing, which an open panel's long-poll carries: chat.spec.ts covers it),
 * which is kept apart.
 */
function recordPolls(page: Page) {
  const polls: { search: string; presence: string | null; at: number; end?: "done" | string }[] = [];
  const find = (request: Request) => polls.find((p) => (p as any).request === request);
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname !== "/api/v1/chat/visitor/messages" || request.method() !== "GET") return;
    const presence = url.searchParams.get("presence");
    url.searchParams.delete("presence");
    polls.push(Object.assign({ search: url.search, presence, at: Date.now() }, { request }));
  });
  page.on("requestfinished", (request) => { const p = find(request); if (p) p.end = "done"; });
  page.on("requestfailed", (request) => { const p = find(request); if (p) p.end = request.failure()?.errorText ?? "failed"; });
  return polls;
}

test("a hidden page polls slowly without holding a request, and long-polls again once visible", async ({ page, site, widget }) => {
  const polls = recordPolls(page);
  await page.clock.install(); // the page's timers, to skip the minute a hidden page waits between polls
  await page.goto(site.url);
  await widget.open();
  await widget.said("Hello");
  const conversation = await onlyConversation(site.id);
  // Held: the poll after the visitor's own message (sequence 1), waiting for the next one.
  await expect.poll(() => polls.filter((p) => p.search === "?cursor=1&limit=50&wait=25" && !p.end).length).toBe(1);
  expect(polls.find((p) => p.search === "?cursor=1&limit=50&wait=25" && !p.end)!.presence, "the open panel's hold carries typing").toMatch(/^\d+$/);

  await setHidden(page, true);
  await staffSays(conversation.id, STAFF.id, "Still there?"); // answers the held poll
  await expect(widget.message("Still there?")).toBeAttached();
  const answered = polls.length;
  await page.waitForTimeout(3_000);
  expect(polls.length, "hidden: no new poll for a while").toBe(answered);

  await page.clock.fastForward(61_000);
  await expect.poll(() => polls.length).toBe(answered + 1);
  expect(polls.at(-1)!.search, "hidden: a short poll, nothing held").toBe("?cursor=2&limit=50");
  await expect.poll(() => polls.at(-1)!.end).toBe("done");

  await setHidden(page, false);
  await expect.poll(() => polls.slice(answered + 1).filter((p) => p.search === "?cursor=2&limit=50&wait=25" && !p.end).length).toBe(1);
});

test("the held request is aborted on pagehide and when the conversation's token goes away", async ({ page, site, widget }) => {
  const polls = recordPolls(page);
  await page.goto(site.url);
  await widget.open();
  await widget.said("Hello");
  const heldNow = () => polls.filter((p) => p.search === "?cursor=1&limit=50&wait=25" && !p.end);
  await expect.poll(() => heldNow().length).toBe(1);

  // pagehide (leaving, or entering the back/forward cache) frees the connection; pageshow resumes.
  const held = heldNow()[0]!;
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: true })));
  await expect.poll(() => held.end).toBe("net::ERR_ABORTED");
  await page.waitForTimeout(500);
  expect(polls.filter((p) => !p.end), "nothing polls while hidden away").toEqual([]);
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true })));
  await expect.poll(() => heldNow().length).toBe(1);

  // Another tab forgets the conversation (its token): this tab drops its held request too.
  const heldAgain = heldNow()[0]!;
  const other = await page.context().newPage();
  await other.goto(site.url);
  await other.evaluate((key) => localStorage.setItem(key, "{}"), `parley:${site.id}`);
  await expect.poll(() => heldAgain.end).toBe("net::ERR_ABORTED");
  await expect(page.getByText("Your chat session has ended. Send a message to start a new conversation.")).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(polls.filter((p) => !p.end), "no poll without a token").toEqual([]);
});

test("a 429 is honoured (Retry-After), failures back off, and polling recovers", async ({ page, site, widget }) => {
  const polls = recordPolls(page);
  await page.clock.install();
  await page.goto(site.url);
  await widget.open();
  await widget.said("Hello");
  const conversation = await onlyConversation(site.id);
  await expect.poll(() => polls.filter((p) => p.search === "?cursor=1&limit=50&wait=25" && !p.end).length).toBe(1);

  // From now on the service (as the page sees it) is busy, then unreachable.
  let mode: "busy" | "down" = "busy";
  await page.route(/\/api\/v1\/chat\/visitor\/messages\?/, async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    if (mode === "down") return route.abort("connectionrefused");
    await route.fulfill({
      status: 429,
      headers: {
        "Access-Control-Allow-Origin": new URL(site.url).origin,
        "Access-Control-Expose-Headers": "Retry-After",
        "Retry-After": "30",
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ success: false, result: { code: "rate_limited" }, message: "Too many requests." }),
    });
  });
  await staffSays(conversation.id, STAFF.id, "First reply"); // answers the held poll; the next one gets 429
  await expect(widget.message("First reply")).toBeVisible();
  await expect.poll(() => polls.length).toBe(3);
  const step = async (ms: number) => {
    await page.clock.fastForward(ms);
    await page.waitForTimeout(30); // let a request started by the jump settle
  };
  for (let s = 0; s < 28; s++) await step(1_000);
  expect(polls.length, "nothing before Retry-After (30 s)").toBe(3);
  for (let s = 0; s < 4; s++) await step(1_000);
  await expect.poll(() => polls.length).toBe(4);

  // Unreachable: retries spread out (2 s, 4 s, 8 s … up to a minute, with jitter), not every 3 s.
  mode = "down";
  for (let s = 0; s < 31; s++) await step(1_000); // past the second Retry-After
  const downFrom = polls.length;
  for (let s = 0; s < 180; s++) await step(1_000);
  const attempts = polls.length - downFrom;
  expect(attempts, `attempts in 3 minutes while down: ${attempts}`).toBeGreaterThanOrEqual(3);
  expect(attempts).toBeLessThanOrEqual(10);

  // Back up: the next attempt (within a minute) catches up on what was missed.
  await page.unroute(/\/api\/v1\/chat\/visitor\/messages\?/);
  await staffSays(conversation.id, STAFF.id, "Second reply");
  for (let s = 0; s < 61 && !(await widget.message("Second reply").isVisible()); s++) await step(1_000);
  await expect(widget.message("Second reply")).toBeVisible();
});

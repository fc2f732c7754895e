import type { Page } from "@playwright/test";
import { staffSays } from "./support/admin";
import { SERVICE_URL, STAFF } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, signedInStaff } from "./support/inbox";
import { apiVisitor } from "./support/visitor-api";

// The thread scrolls in its own pane (issue #25, defects): it opens at the newest message, follows
// new ones while the agent is at the bottom, offers "New messages ↓" when scrolled up, and the
// composer's Send stays in view at 1280 and 375 px: the page itself never grows past the window.

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

async function pageFitsWindow(page: Page) {
  const sizes = await page.evaluate(() => ({ page: document.documentElement.scrollHeight, window: window.innerHeight, wide: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(sizes.page).toBeLessThanOrEqual(sizes.window);
  expect(sizes.wide).toBeLessThanOrEqual(sizes.width);
}

test("a long thread opens at the newest message, follows new ones, and offers New messages ↓ when scrolled up", async ({ browser, site }) => {
  const visitor = await apiVisitor(site.id, { name: "Lena Long", body: "My order has not arrived." });
  for (let i = 1; i <= 24; i++) await staffSays(visitor.conversationId, STAFF.id, `Update ${i}: ${"still checking with the carrier. ".repeat(4)}`);

  const agent = await signedInStaff(browser, "agent", "Sid Scroller");
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${visitor.conversationId}`);
  const messages = inbox.getByTestId("messages").locator("li");
  await expect(messages).toHaveCount(25);
  await expect(messages.last()).toContainText("Update 24");
  await expect(messages.last()).toBeInViewport();
  await expect(messages.first()).not.toBeInViewport();
  await expect(inbox.getByRole("button", { name: "Send reply" })).toBeInViewport();
  await pageFitsWindow(inbox);

  // At the bottom, a visitor message arriving live is scrolled into view.
  await visitor.say("Any news? (live 1)");
  await expect(messages.last()).toContainText("live 1");
  await expect(messages.last()).toBeInViewport();
  const jump = inbox.getByRole("button", { name: "New messages ↓" });
  await expect(jump).toHaveCount(0);

  // Scrolled up, the next one does not move the thread; the button jumps down.
  await inbox.getByTestId("thread-scroll").evaluate((pane) => pane.scrollTo({ top: 0 }));
  await expect(messages.first()).toBeInViewport();
  await visitor.say("Hello? (live 2)");
  await expect(jump).toBeVisible();
  await expect(messages.last()).toContainText("live 2");
  await expect(messages.last()).not.toBeInViewport();
  await expect(messages.first()).toBeInViewport();
  await axeScan(inbox, "a long thread with New messages ↓");
  await jump.click();
  await expect(messages.last()).toBeInViewport();
  await expect(jump).toHaveCount(0);

  // The agent's own reply is followed too.
  const composer = inbox.getByLabel("Reply to the visitor");
  await composer.fill("It arrives tomorrow.");
  await composer.press("Enter");
  await expect(messages.last()).toContainText("It arrives tomorrow.");
  await expect(messages.last()).toBeInViewport();

  // 375 px, light then dark: the newest message and Send in view, nothing overflows, axe passes.
  await inbox.setViewportSize({ width: 375, height: 740 });
  await inbox.reload();
  await expect(messages.last()).toBeInViewport();
  await expect(inbox.getByRole("button", { name: "Send reply" })).toBeInViewport();
  await pageFitsWindow(inbox);
  await axeScan(inbox, "a long thread at 375 px");
  await inbox.emulateMedia({ colorScheme: "dark" });
  await axeScan(inbox, "a long thread at 375 px, dark");
  await agent.context.close();
});

test("a member who had read the thread reopens it at the first message they have not read", async ({ browser, site }) => {
  const visitor = await apiVisitor(site.id, { name: "Una Unread", body: "First question." });
  for (let i = 1; i <= 20; i++) await staffSays(visitor.conversationId, STAFF.id, `Answer ${i}: ${"here is a long explanation. ".repeat(5)}`);
  const agent = await signedInStaff(browser, "agent", "Rita Reader");
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${visitor.conversationId}`);
  await expect(inbox.getByTestId("messages").locator("li")).toHaveCount(21);
  await inbox.goto(`${SERVICE_URL}/inbox`);

  await visitor.say("Unread question one.");
  for (let i = 21; i <= 40; i++) await staffSays(visitor.conversationId, STAFF.id, `Answer ${i}: ${"another long explanation. ".repeat(5)}`);
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${visitor.conversationId}`);
  const firstUnread = inbox.getByTestId("messages").locator("li", { hasText: "Unread question one." });
  await expect(firstUnread).toBeInViewport();
  await expect(inbox.getByTestId("messages").locator("li").last()).not.toBeInViewport();
  await agent.context.close();
});

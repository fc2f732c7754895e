import { CUSTOMER_URL, SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, signedInStaff } from "./support/inbox";
import { apiVisitor } from "./support/visitor-api";

// The inbox on a phone (375 px) and the walk's defects (issue #25): the header is one row with a
// Menu disclosure, list and thread are separate screens, tickets are cards; no 8 px body margin;
// Close and Reopen answer at once; after a note the composer is back in reply mode; a ticket
// reply says what became of its email.

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("at 375 px the header folds into a menu, the thread is its own screen and tickets are cards", async ({ browser, site }) => {
  const visitor = await apiVisitor(site.id, { name: "Pia Phone", body: "Hello from my phone" });
  const filed = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${site.id}/tickets`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ email: "pia.with.a.rather.long.address@example.com", subject: "A subject long enough to overflow a narrow table cell", body: "Details" }),
  });
  expect(filed.status).toBe(201);
  const agent = await signedInStaff(browser, "agent", "Moe Mobile");
  const inbox = agent.page;
  await inbox.setViewportSize({ width: 375, height: 740 });
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${visitor.conversationId}`);

  // No browser margin around the inbox (a white frame in dark mode otherwise).
  expect(await inbox.evaluate(() => getComputedStyle(document.body).margin)).toBe("0px");
  // One row: brand and Menu; the menu is a disclosure.
  const menu = inbox.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  const header = inbox.locator("header").first();
  expect((await header.boundingBox())!.height).toBeLessThan(60);
  await expect(inbox.getByRole("navigation", { name: "Inbox" })).toBeHidden();
  await expect(inbox.getByRole("searchbox", { name: "Search conversations and tickets" })).toBeVisible();
  // The thread alone, with a way back to the list.
  await expect(inbox.getByTestId("conversation-list")).toBeHidden();
  await expect(inbox.getByRole("link", { name: "← All conversations" })).toBeVisible();
  await expect(inbox.getByRole("button", { name: "Send reply" })).toBeInViewport();
  await axeScan(inbox, "a conversation at 375 px");

  await expect(async () => {
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true", { timeout: 1_000 });
  }).toPass();
  await expect(inbox.getByRole("navigation", { name: "Inbox" })).toBeVisible();
  await axeScan(inbox, "the open menu at 375 px");
  await inbox.getByRole("navigation", { name: "Inbox" }).getByRole("link", { name: "Tickets" }).click();
  await inbox.waitForURL(/\/inbox\/tickets$/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");

  const card = inbox.getByRole("row", { name: /A subject long enough/ });
  await expect(card).toBeVisible();
  expect(await inbox.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await axeScan(inbox, "tickets as cards at 375 px");
  await inbox.emulateMedia({ colorScheme: "dark" });
  await axeScan(inbox, "tickets as cards at 375 px, dark");
  expect(await inbox.evaluate(() => getComputedStyle(document.body).margin)).toBe("0px");
  await agent.context.close();
});

test("Close and Reopen answer at once, a note hands back to reply mode, a ticket reply says its email was not sent", async ({ browser, site }) => {
  const visitor = await apiVisitor(site.id, { name: "Flo Feedback", body: "Is anyone there?" });
  const agent = await signedInStaff(browser, "agent", "Ned Notes");
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${visitor.conversationId}`);

  // A note, then the composer is a reply box again.
  await inbox.getByText("Private note", { exact: true }).click();
  const note = inbox.getByLabel("Private note (only your team sees it)");
  await note.fill("Checking the warehouse");
  await note.press("Enter");
  await expect(inbox.getByTestId("messages")).toContainText("Checking the warehouse");
  await expect(inbox.getByRole("radio", { name: "Reply" })).toBeChecked();
  await expect(inbox.getByLabel("Reply to the visitor")).toBeVisible();

  // Close: pending at once (within a frame or two), then the new state; the line names the closer.
  const close = inbox.getByRole("button", { name: "Close conversation" });
  await close.click();
  await expect(inbox.getByRole("button", { name: /Closing…|Reopen conversation/ })).toBeVisible({ timeout: 500 });
  await expect(inbox.getByRole("button", { name: "Reopen conversation" })).toBeEnabled();
  await expect(inbox.getByTestId("messages").locator("li").last()).toContainText("Closed by Ned Notes");
  await inbox.getByRole("button", { name: "Reopen conversation" }).click();
  await expect(inbox.getByRole("button", { name: /Reopening…|Close conversation/ })).toBeVisible({ timeout: 500 });
  await expect(inbox.getByTestId("messages").locator("li").last()).toContainText("Reopened by Ned Notes");
  await axeScan(inbox, "a conversation closed and reopened");

  // A ticket reply with no SMTP_URL: the reply says it was not sent, never "Emailed to".
  const filed = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${site.id}/tickets`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ email: "flo@example.com", subject: "Reply state", body: "Please answer" }),
  });
  expect(filed.status).toBe(201);
  await inbox.goto(`${SERVICE_URL}/inbox/tickets`);
  await inbox.getByRole("link", { name: "Reply state" }).click();
  const replyBox = inbox.getByLabel("Reply to flo@example.com");
  await replyBox.fill("Answered.");
  await replyBox.press("Enter");
  const delivery = inbox.getByTestId("reply-delivery");
  await expect(delivery).toHaveText(/Queued for flo@example.com|Not sent: no mail server is configured/);
  await expect(async () => {
    await inbox.reload();
    await expect(delivery).toHaveText("Not sent: no mail server is configured (see the outbox)", { timeout: 1_000 });
  }).toPass({ timeout: 40_000 });
  await expect(inbox.getByText("Emailed to flo@example.com")).toHaveCount(0);
  await agent.context.close();
});

import { createHmac } from "node:crypto";
import { conversations, must, onlyConversation, staffSays } from "./support/admin";
import { STAFF } from "./support/env";
import { expect as baseExpect, test, Widget } from "./support/fixtures";

// Returning visitors (issue 26, decisions.md round 3): the widget lists this browser's
// conversations and, for a verified user, their conversations from any browser; one tap opens one
// or starts a new one.

// Two browsers, reloads and several conversations on a 2-core machine shared with other suites.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const listButton = (widget: Widget) => widget.host.getByRole("button", { name: "Your conversations" });
const open = async (widget: Widget) => {
  await widget.launcher.click();
  await expect(widget.panel).toBeVisible();
};
const list = (widget: Widget) => widget.host.getByRole("region", { name: "Your conversations" });

test("a returning browser sees its conversations, newest first, opens a closed one and starts anew", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await open(widget);
  await widget.said("First question");
  const first = await onlyConversation(site.id);
  await must("POST", `/conversations/${first.id}/close`);
  const startNew = widget.host.getByRole("button", { name: "Start a new conversation" });
  await startNew.click();
  await widget.said("Second question");
  const second = (await conversations(site.id)).find((c) => c.id !== first.id)!;
  await staffSays(second.id, STAFF.id, "Answer to the second");
  await expect(widget.message("Answer to the second")).toBeVisible();

  await page.reload();
  await open(widget);
  await expect(widget.message("Answer to the second")).toBeVisible(); // the current conversation resumes
  await listButton(widget).click();
  await expect(list(widget)).toBeVisible();
  const items = list(widget).getByRole("listitem");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText("Answer to the second");
  await expect(items.nth(1)).toContainText("First question"); // what was asked, not the closing line
  await expect(items.nth(1)).not.toContainText("This conversation was closed.");
  await expect(items.nth(1)).toContainText("Closed");
  await expect(items.nth(0).locator(".pv")).toHaveAttribute("dir", "auto");

  // Keyboard: the list opens on "New conversation"; Tab reaches the conversations, Enter opens one.
  await expect(list(widget).getByRole("button", { name: "New conversation" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(list(widget)).toBeHidden();
  await expect(widget.message("First question")).toBeVisible();
  await expect(widget.message("Second question")).toHaveCount(0);
  await expect(widget.host.locator("#cl")).toContainText("This conversation was closed.");

  // "New conversation" is one tap from the list: an empty chat, ready to write.
  await listButton(widget).click();
  await list(widget).getByRole("button", { name: "New conversation" }).click();
  await expect(widget.messages).toHaveCount(0);
  await expect(widget.input).toBeFocused();
  await widget.said("Third question");
  await expect.poll(() => conversations(site.id).then((all) => all.length)).toBe(3);
});

test("a verified user on a second browser sees their conversations and continues one", async ({ browser, page, site, widget }) => {
  const secret = (await must<{ identity_secret: string }>("POST", `/sites/${site.id}/identity-secret`)).identity_secret;
  const identity = { user_id: "customer-42", user_hash: createHmac("sha256", secret).update("customer-42").digest("hex") };
  const identify = (target: import("@playwright/test").Page) =>
    target.evaluate((o) => (window as unknown as { Parley: { identify(o: object): void } }).Parley.identify(o), identity);

  await page.goto(site.url);
  await identify(page);
  await open(widget);
  await widget.said("Asked on my laptop");
  const conversation = await onlyConversation(site.id);
  await staffSays(conversation.id, STAFF.id, "Answered for the laptop");
  await expect(widget.message("Answered for the laptop")).toBeVisible();

  const phone = await browser.newContext();
  const other = await phone.newPage();
  const widgetB = new Widget(other);
  await other.goto(site.url);
  await identify(other);
  await open(widgetB);
  // Nothing going on in this browser: the list shows first, filled from the server.
  await expect(list(widgetB)).toBeVisible();
  const items = list(widgetB).getByRole("listitem");
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText("Answered for the laptop");
  await items.first().getByRole("button").click();
  await expect(widgetB.message("Asked on my laptop")).toBeVisible();
  await expect(widgetB.message("Answered for the laptop")).toBeVisible();
  await widgetB.said("Following up from my phone");
  expect(await conversations(site.id)).toHaveLength(1);
  await expect(widget.message("Following up from my phone")).toBeVisible(); // the same conversation, seen on the laptop too
  await phone.close();
});

test("a conversation closed while this browser never saw it is listed with what was said, not the closed line", async ({ browser, page, site, widget }) => {
  const secret = (await must<{ identity_secret: string }>("POST", `/sites/${site.id}/identity-secret`)).identity_secret;
  const identity = { user_id: "customer-7", user_hash: createHmac("sha256", secret).update("customer-7").digest("hex") };
  await page.goto(site.url);
  await page.evaluate((o) => (window as unknown as { Parley: { identify(o: object): void } }).Parley.identify(o), identity);
  await open(widget);
  await widget.said("Where is parcel 7?");
  const conversation = await onlyConversation(site.id);
  await staffSays(conversation.id, STAFF.id, "It left the depot today");
  await must("POST", `/conversations/${conversation.id}/close`);

  const laptop = await browser.newContext();
  const other = await laptop.newPage();
  const widgetB = new Widget(other);
  await other.goto(site.url);
  await other.evaluate((o) => (window as unknown as { Parley: { identify(o: object): void } }).Parley.identify(o), identity);
  await open(widgetB);
  const item = list(widgetB).getByRole("listitem");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText("It left the depot today");
  await expect(item).not.toContainText("This conversation was closed.");
  await laptop.close();
});

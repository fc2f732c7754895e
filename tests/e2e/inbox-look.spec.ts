import { SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { asStaff, axeScan, inboxScreenshot, signedInStaff } from "./support/inbox";
import { apiVisitor } from "./support/visitor-api";

// The inbox's look (issue #42 item 3; docs/inbox.md, "Views" and "The top bar"): the rail's views
// with their counts, the member menu from the keyboard, the empty states, and the screenshots of
// docs/inbox.md at 1280 and 390 px, light and dark (tests/e2e/__screenshots__ with E2E_SCREENSHOTS=1).

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("the rail's views list and count, the member menu works from the keyboard, and empty views say what next", async ({ browser, site }) => {
  const [order, billing, checkout] = await Promise.all([
    apiVisitor(site.id, { name: "Ana Ortiz", body: "Hi! My order #4412 has not arrived yet, can you check?" }),
    apiVisitor(site.id, { name: "Ben Kowalski", body: "Can I switch my plan to annual billing?" }),
    apiVisitor(site.id, { name: "Chloé Martin", body: "The checkout page shows an error after I enter my card." }),
  ]);
  const owner = await signedInStaff(browser, "owner", "Olivia Park");
  const team = await asStaff<{ id: string; name: string }>(owner, "POST", "/teams", { name: `Billing ${Date.now().toString(36)}`, member_ids: [owner.id] });
  await asStaff(owner, "PUT", `/conversations/${billing.conversationId}/team`, { team_id: team.id });
  await asStaff(owner, "POST", `/conversations/${order.conversationId}/assign`, { member_id: owner.id });
  await asStaff(owner, "POST", `/conversations/${order.conversationId}/messages`, { body: "Hi Ana, let me look that up for you. One moment." });
  await checkout.say("It says the card was declined, but my bank says it is fine.");
  const inbox = owner.page;
  await inbox.goto(`${SERVICE_URL}/inbox`);

  // The views, each with its count; one is the page's.
  const views = inbox.getByRole("navigation", { name: "Views" });
  await expect(views.getByRole("link", { name: "Mine 1 open" })).toBeVisible();
  await expect(views.getByRole("link", { name: `${team.name} 1 open` })).toBeVisible();
  await expect(views.getByRole("link", { name: /^All/ })).toHaveAttribute("aria-current", "page");
  await views.getByRole("link", { name: /^Mine/ }).click();
  await inbox.waitForURL(/\?assigned=me$/);
  await expect(views.getByRole("link", { name: /^Mine/ })).toHaveAttribute("aria-current", "page");
  await expect(inbox.locator("[data-conversation]")).toHaveCount(1);
  await expect(inbox.getByLabel("Assigned")).toHaveValue("me");
  await views.getByRole("link", { name: team.name }).click();
  await inbox.waitForURL(new RegExp(`\\?team=${team.id}$`));
  await expect(inbox.locator("[data-conversation]")).toHaveCount(1);
  await expect(inbox.locator(`[data-conversation="${billing.conversationId}"]`)).toBeVisible();

  // An empty view says what to do next.
  await views.getByRole("link", { name: /^Mentions/ }).click();
  await inbox.waitForURL(/\?mentioned=me$/);
  await expect(inbox.getByText("No open conversation mentions you.")).toBeVisible();
  await axeScan(inbox, "an empty view");

  // The member menu, from the keyboard: open, act, Escape closes it and gives the focus back.
  const account = inbox.getByRole("button", { name: /your account and availability/ });
  await account.focus();
  await inbox.keyboard.press("Enter");
  const menu = inbox.getByRole("group", { name: "Your account" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("combobox", { name: "Your availability" })).toHaveValue("online");
  await menu.getByRole("button", { name: "Sound on" }).click();
  await expect(menu.getByRole("button", { name: "Sound off" })).toHaveAttribute("aria-pressed", "true");
  await axeScan(inbox, "the member menu");
  await inbox.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(account).toBeFocused();
  // Its shortcuts entry opens the same list as ? does.
  await inbox.keyboard.press("Enter");
  await menu.getByRole("button", { name: "Keyboard shortcuts" }).click();
  await expect(inbox.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await inbox.keyboard.press("Escape");

  // Screenshots for docs/inbox.md: a conversation beside the list, the menu open, and a phone.
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${order.conversationId}?site=${site.id}`);
  await expect(inbox.getByTestId("messages")).toContainText("let me look that up");
  await expect(inbox.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
  for (const scheme of ["light", "dark"] as const) {
    await inbox.emulateMedia({ colorScheme: scheme });
    await inbox.setViewportSize({ width: 1280, height: 800 });
    await inboxScreenshot(inbox, `inbox-1280-${scheme}`);
    await account.click();
    await expect(menu).toBeVisible();
    await inboxScreenshot(inbox, `inbox-menu-1280-${scheme}`);
    await inbox.keyboard.press("Escape");
    await axeScan(inbox, `a conversation at 1280 px, ${scheme}`);
  }
  await inbox.goto(`${SERVICE_URL}/inbox?site=${site.id}`);
  const rail = inbox.getByRole("button", { name: "Menu" });
  for (const scheme of ["light", "dark"] as const) {
    await inbox.emulateMedia({ colorScheme: scheme });
    await inbox.setViewportSize({ width: 390, height: 844 });
    await expect(inbox.locator("[data-conversation]")).toHaveCount(3);
    await expect(inbox.getByRole("status").filter({ hasText: "Live" })).toBeAttached();
    expect(await inbox.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await inboxScreenshot(inbox, `inbox-390-${scheme}`);
    await rail.click();
    await expect(views).toBeVisible();
    await inboxScreenshot(inbox, `inbox-rail-390-${scheme}`);
    await axeScan(inbox, `the rail at 390 px, ${scheme}`);
    await rail.click();
    await expect(views).toBeHidden();
  }
  await owner.context.close();
});

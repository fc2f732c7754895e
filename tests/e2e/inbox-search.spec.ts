import { staffSays } from "./support/admin";
import { CUSTOMER_URL, SERVICE_URL, STAFF } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, inboxScreenshot, signedInStaff } from "./support/inbox";

// Search (issue #25, docs/search.md): `/` focuses the header's box, the results mark the matched
// words (accents folded), and a result opens its conversation scrolled to the matching message,
// highlighted; at 375 px and in dark mode too.

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("/ focuses search; a result opens the conversation at the matching message, highlighted", async ({ browser, site }) => {
  // A word of this test's own: the service's database is shared by every test of the run.
  const tag = `lampwick${Date.now().toString(36).replace(/[0-9]/g, "")}`;
  const response = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${site.id}/conversations`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Chloé Visitor", body: `Do you still sell the Crème ${tag} lamp? <b>not bold</b>`, client_id: "s1" }),
  });
  expect(response.status).toBe(201);
  const conversationId = ((await response.json()) as { result: { conversation_id: string } }).result.conversation_id;
  // Enough later messages that the match sits far above the newest one.
  for (let i = 0; i < 14; i++) await staffSays(conversationId, STAFF.id, `Reply ${i}: ${"we are looking into it. ".repeat(6)}`);

  const agent = await signedInStaff(browser, "agent", "Sam Searcher");
  const inbox = agent.page;
  const box = inbox.getByRole("searchbox", { name: "Search conversations and tickets" });
  // Until the page has hydrated, no script listens for the key yet.
  await expect(async () => {
    await inbox.keyboard.press("/");
    await expect(box).toBeFocused({ timeout: 1_000 });
  }).toPass();
  await box.fill(`creme ${tag}`);
  await box.press("Enter");

  const results = inbox.getByRole("list", { name: "Search results" });
  const result = results.getByRole("link", { name: /Chloé Visitor/ });
  await expect(result).toBeVisible();
  await expect(result.locator("mark")).toHaveText(["Crème", tag]);
  await expect(result).toContainText("‹b›not bold‹/b›");
  await expect(result).toContainText("Message"); // matched_in: the visitor's own message, not a note
  await axeScan(inbox, "search results");
  await inboxScreenshot(inbox, "inbox-13-search-results");

  await result.click();
  await inbox.waitForURL(/\/inbox\/conversations\/[^?]+\?m=/);
  const matched = inbox.locator('[data-matched="true"]');
  await expect(matched).toContainText(`Crème ${tag}`);
  await expect(matched).toBeInViewport();
  await expect(inbox.getByTestId("messages").locator("li").last()).not.toBeInViewport();

  // `/` while typing in a field types a slash.
  const composer = inbox.getByLabel("Reply to the visitor");
  await composer.click();
  await composer.pressSequentially("a/b");
  await expect(composer).toHaveValue("a/b");

  // 375 px, dark: the box stays usable and the results pass axe.
  await inbox.setViewportSize({ width: 375, height: 740 });
  await inbox.emulateMedia({ colorScheme: "dark" });
  await inbox.goto(`${SERVICE_URL}/inbox/search?q=${encodeURIComponent(tag)}`);
  await expect(inbox.getByRole("searchbox", { name: "Search conversations and tickets" })).toBeVisible();
  await expect(results.getByRole("link")).toHaveCount(1);
  await axeScan(inbox, "search results at 375 px, dark");
  await agent.context.close();
});

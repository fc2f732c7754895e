import { must } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { inboxScreenshot, signedInStaff } from "./support/inbox";
import type { Page } from "@playwright/test";

// The widget in bot mode (issue 40; docs/answers.md, "The widget"): the article suggested as the
// visitor types, the bot's answer citing its article as a link under the message, "Talk to a
// person" there from the first message on, and the handoff reaching the agent's inbox as a system
// line after the visitor's question. Then the help center inside the panel: an article opened from
// a suggestion, "still need help" sending what was typed, and the page's Parley.openArticle and
// Parley.searchArticles (the first queued before the widget loaded).

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const QUESTION = "how long does shipping take?";

/** docs/answers.md's screenshots (tests/e2e/__screenshots__ with E2E_SCREENSHOTS=1): 1280 and 390 px, light and dark. */
async function screenshots(page: Page, name: string): Promise<void> {
  for (const [width, height, scheme] of [[1280, 720, "light"], [1280, 720, "dark"], [390, 844, "dark"], [390, 844, "light"]] as const) {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: scheme });
    await inboxScreenshot(page, `${name}-${width}-${scheme}`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });
}
const HANDOFF_LINE = "You asked to talk to a person. Someone from the team will answer here.";

test("a visitor gets the bot's cited answer, asks for a person, and the agent sees the handoff", async ({ browser, page, site, widget }) => {
  const article = await must<{ id: string; url: string }>("POST", "/articles", {
    site_id: site.id,
    title: "Shipping times",
    body: "## How long does shipping take?\n\nShipping takes 2 to 4 business days within the EU. We ship every weekday.",
    status: "published",
  });
  await must("PATCH", `/sites/${site.id}`, { answers: "bot", help_center: { enabled: true } });

  await page.goto(site.url);
  await widget.open();
  const talk = page.locator("parley-chat").getByRole("button", { name: "Talk to a person" });
  // As the visitor types, the shipping article is suggested over the composer (before anything is sent).
  await widget.input.fill(QUESTION);
  const suggested = page.locator("parley-chat").getByRole("region", { name: "Suggested articles" });
  await expect(suggested.getByRole("button")).toHaveCount(1);
  await expect(suggested.getByRole("button")).toContainText("Shipping times");
  await expect(suggested.locator("mark").first()).toBeVisible();
  await widget.input.press("Enter");
  await expect(suggested).toBeHidden(); // the message went: the conversation has started
  await expect(talk).toBeVisible();

  // The bot's answer: the passage as text, the article as a source link opening in a new tab.
  const answer = widget.messages.filter({ hasText: "2 to 4 business days" });
  await expect(answer).toHaveCount(1);
  const source = answer.locator(".src a");
  await expect(source).toHaveText("Shipping times");
  await expect(source).toBeVisible(); // not in the visually hidden .sr class of the panel's styles
  await expect(source).toHaveAttribute("href", article.url);
  await expect(source).toHaveAttribute("target", "_blank");
  await expect(source).toHaveAttribute("rel", "noopener");
  const [conversation] = await must<{ id: string }[]>("GET", `/conversations?site=${encodeURIComponent(site.id)}`);
  const stored = await must<{ messages: { author_type: string; sources: { article_id: string }[] }[] }>("GET", `/conversations/${conversation!.id}`);
  expect(stored.messages.filter((message) => message.sources.length > 0).map((message) => message.sources)).toEqual([[expect.objectContaining({ article_id: article.id })]]);

  // The handoff: one tap, then a quiet line instead of the button, and the server's line in the thread.
  await talk.click();
  await expect(page.locator("parley-chat").getByText("A person will answer here.")).toBeVisible();
  await expect(talk).toBeHidden();
  await expect(widget.messages.filter({ hasText: HANDOFF_LINE })).toHaveCount(1);

  const agent = await signedInStaff(browser, "agent", "Hana Handoff");
  await agent.page.goto(`${SERVICE_URL}/inbox/conversations/${conversation!.id}`);
  const thread = agent.page.getByTestId("messages");
  await expect(thread).toContainText(QUESTION);
  await expect(thread).toContainText(HANDOFF_LINE);
  await agent.context.close();
});

test("a suggested article opens inside the panel and \"Chat with us\" sends what was typed; the page opens articles through Parley", async ({ page, site, widget }) => {
  const shipping = await must<{ id: string }>("POST", "/articles", {
    site_id: site.id,
    title: "Shipping times",
    body: "## Delivery\n\nShipping takes **2 to 4 business days** within the EU.\n\n<script>alert(1)</script>",
    status: "published",
  });
  await must("POST", "/articles", { site_id: site.id, title: "Returns", body: "Return anything within 30 days.", status: "published" });
  await must("PATCH", `/sites/${site.id}`, { answers: "suggest", help_center: { enabled: true } });
  const shadow = page.locator("parley-chat");
  const reader = shadow.getByRole("region", { name: "Shipping times" });

  // Queued before the widget loaded, as a page's inline snippet would.
  await page.addInitScript((id) => {
    (window as unknown as { Parley: unknown }).Parley = { q: [["openArticle", [id]]] };
  }, shipping.id);
  await page.goto(site.url);
  await expect(reader).toBeVisible();
  await expect(reader.locator(".ak strong")).toHaveText("2 to 4 business days");
  await expect(reader.locator(".ak")).toContainText("<script>alert(1)</script>"); // raw HTML is its own text
  await expect(reader.locator("script")).toHaveCount(0);
  await reader.getByRole("button", { name: "Back" }).click();
  await expect(reader).toBeHidden();
  await expect(widget.input).toBeVisible();

  // From the page, after load: a search lists the matches in the open panel.
  await page.evaluate(() => (window as unknown as { Parley: { searchArticles(q: string): void } }).Parley.searchArticles("return"));
  const suggested = shadow.getByRole("region", { name: "Suggested articles" });
  await expect(suggested.getByRole("button")).toHaveText([/Returns/]);

  // Typing: the suggestion opens in the panel; "Chat with us" sends the typed question.
  await widget.input.fill("shipping days");
  await expect(suggested.getByRole("button")).toHaveText([/Shipping times/]);
  await screenshots(page, "widget-suggestions");
  await suggested.getByRole("button").click();
  await expect(reader).toBeVisible();
  await screenshots(page, "widget-article");
  await expect(widget.input).toBeHidden();
  await reader.getByRole("button", { name: "Yes" }).click();
  await expect(reader.getByText("Thanks for telling us.")).toBeVisible();
  await reader.getByRole("button", { name: "Chat with us" }).click();
  await expect(reader).toBeHidden();
  await expect(widget.message("shipping days")).toHaveCount(1);
  // Stored: the conversation started with the visitor's own question.
  await expect(widget.message("shipping days").locator(".mt")).not.toHaveText(/Sending|Not sent|Waiting/);
  await expect.poll(async () => (await must<{ id: string }[]>("GET", `/conversations?site=${encodeURIComponent(site.id)}`)).length).toBe(1);
  const articles = await must<{ id: string; helpful: number; views: number }[]>("GET", `/articles?site=${encodeURIComponent(site.id)}`);
  expect(articles.find((article) => article.id === shipping.id)).toMatchObject({ helpful: 1, views: 2 }); // two reads, one vote
});

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { must, onlyConversation, staffSays } from "./support/admin";
import { STAFF } from "./support/env";
import { expect, test } from "./support/fixtures";

/** axe-core over the widget only (its shadow tree included); serious and critical findings fail. */
async function scan(page: Page, state: string) {
  const { violations } = await new AxeBuilder({ page })
    .include("parley-chat")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  const grave = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const summary = (list: typeof violations) => list.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  for (const line of summary(violations.filter((v) => !grave.includes(v)))) test.info().annotations.push({ type: `axe (${state})`, description: line });
  expect(summary(grave), `axe: serious or critical issues in the ${state}`).toEqual([]);
}

test("axe finds no serious or critical issue in the open widget: chat, email prompt, ticket form", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await scan(page, "closed launcher");
  await widget.open();
  await scan(page, "empty chat");

  await widget.said("Can I pay by invoice?");
  const conversation = await onlyConversation(site.id);
  await staffSays(conversation.id, STAFF.id, "Yes, for orders over $500. See https://example.com/invoices.");
  await expect(widget.message("Yes, for orders over $500. See https://example.com/invoices.").locator(".av img")).toBeVisible();
  await scan(page, "chat with a staff reply");

  await page.getByRole("button", { name: "Prefer email? Leave a message" }).click();
  await scan(page, "ticket form");
  await page.getByRole("button", { name: "← Back to chat" }).click();

  // Staff close the conversation (the widget is told by the closing notice) and the site goes
  // offline: the next message starts a new conversation, which needs the visitor's email first.
  await must("PATCH", `/sites/${site.id}`, { offline: true });
  await must("POST", `/conversations/${conversation.id}/close`);
  await expect(page.getByRole("button", { name: "Start a new conversation" })).toBeVisible();
  await scan(page, "closed conversation");
  await widget.say("One more thing");
  await expect(widget.message("One more thing").locator(".mt")).toHaveText("Waiting for your email…");
  await expect(page.getByLabel("We're away. Leave your email and we'll reply there.")).toBeVisible();
  await scan(page, "offline email prompt");
});

test("the widget works from the keyboard: Escape closes it and focus returns to the launcher", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await page.keyboard.press("Tab"); // the page's own button
  await page.keyboard.press("Tab");
  await expect(widget.launcher).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(widget.panel).toBeVisible();
  await expect(widget.input).toBeFocused();
  await expect(widget.launcher).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Escape");
  await expect(widget.panel).toBeHidden();
  await expect(widget.launcher).toBeFocused();
  await expect(widget.launcher).toHaveAttribute("aria-expanded", "false");
});

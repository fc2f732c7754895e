import { must, onlyConversation } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import { signedInStaff } from "./support/inbox";

// Ratings (issue #27, item 4): after a close the widget asks with five faces; the rating shows in
// the inbox thread.

test("a visitor rates a closed conversation with a face and a comment; the inbox thread shows it", async ({ browser, page, site, widget }) => {
  test.setTimeout(120_000); // two flows: the visitor's, then a member signing in to the thread
  await page.goto(site.url);
  await widget.open();
  await widget.said("Does the lamp come with a bulb?");
  const conversation = await onlyConversation(site.id);
  await must("POST", `/conversations/${conversation.id}/close`);

  await expect(page.getByRole("group", { name: "How was this conversation?" })).toBeVisible();
  await page.getByRole("button", { name: "Good", exact: true }).click();
  await expect(page.getByRole("button", { name: "Good", exact: true })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("textbox", { name: "Anything to add? (optional)" }).fill("Quick answer, thanks.");
  await page.getByRole("button", { name: "Send rating" }).click();
  await expect(page.locator("parley-chat #rd")).toHaveText("Thank you for your rating!");
  await expect(page.getByRole("group", { name: "How was this conversation?" })).toBeHidden();

  const agent = await signedInStaff(browser, "agent", "Rita Rated");
  await agent.page.goto(`${SERVICE_URL}/inbox/conversations/${encodeURIComponent(conversation.id)}`);
  await expect(agent.page.getByTestId("ratings")).toContainText("4 out of 5 · “Quick answer, thanks.”");
  await agent.context.close();
});

import { must, onlyConversation } from "./support/admin";
import { expect, screenshot, test } from "./support/fixtures";

test("an offline site asks for the email before the conversation starts", async ({ page, site, widget }) => {
  await must("PATCH", `/sites/${site.id}`, { offline: true });
  await page.goto(site.url);
  await widget.open();

  await widget.say("Do you ship to Norway?");
  const prompt = page.getByLabel("We're away. Leave your email and we'll reply there.");
  await expect(prompt).toBeVisible();
  await expect(prompt).toBeFocused();
  await expect(widget.message("Do you ship to Norway?").locator(".mt")).toHaveText("Waiting for your email…");
  expect(await must("GET", `/conversations?site=${site.id}`)).toHaveLength(0);
  await prompt.fill("ola@example.com");
  await screenshot(page, "04-offline-email", { x: 860, y: 0, width: 420, height: 720 });

  await page.getByRole("button", { name: "Continue" }).click();
  await expect(prompt).toBeHidden();
  await expect(widget.message("Do you ship to Norway?").locator(".mt")).not.toHaveText(/Waiting|Sending|Not sent/);
  await expect(page.locator("parley-chat #n")).toHaveText("We're offline right now. We'll reply by email to ola@example.com.");
  const conversation = await onlyConversation(site.id);
  expect(conversation).toMatchObject({ offline: true, visitor_email: "ola@example.com", last_sequence: 1 });
});

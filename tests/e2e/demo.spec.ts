import { SERVICE_URL } from "./support/env";
import { expect, screenshot, test } from "./support/fixtures";

// The demo site is seeded in embedded mode only (docs/api.md, "Running").
test.skip(Boolean(process.env.E2E_DATABASE_URL), "no demo site on PostgreSQL");

test("the demo page on the service's own origin: a message gets Mira's typing (named from the start), then her answer from the shipping article, with its source", async ({ page, widget }) => {
  const refused: string[] = [];
  page.on("response", (response) => {
    if (response.url().includes("/api/") && response.status() >= 400) refused.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  await page.goto(`${SERVICE_URL}/demo`);
  await expect(page.getByRole("heading", { name: "Aurora Lamp" })).toBeVisible();
  await widget.open();

  const typing = await widget.watchTyping();
  await widget.said("How long does shipping take?");
  await expect.poll(typing).toContain("Mira from Lumen & Co. is typing…"); // the same person who then replies
  const reply = widget.messages.filter({ hasText: /Orders leave our warehouse within one business day/ });
  await expect(reply).toBeVisible();
  await expect(reply.locator(".nm")).toHaveText("Mira from Lumen & Co.");
  await expect(reply.locator(".av img")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expect(reply.locator(".src a")).toHaveAttribute("href", /\/help\/demo\/en\/shipping$/);
  await expect(reply.locator(".src a")).toBeVisible();
  await expect(widget.typing).toHaveText("");
  await expect(page.locator("parley-chat").getByRole("button", { name: "Talk to a person" })).toBeVisible();
  await widget.input.blur();
  await screenshot(page, "13-demo-shop"); // the site config's brand colour and title; no dev overlay
  expect(refused, "same-origin requests of the demo page are accepted").toEqual([]);
});

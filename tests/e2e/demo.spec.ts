import { SERVICE_URL } from "./support/env";
import { expect, screenshot, test } from "./support/fixtures";

// The demo site is seeded in embedded mode only (docs/api.md, "Running").
test.skip(Boolean(process.env.E2E_DATABASE_URL), "no demo site on PostgreSQL");

test("the demo page on the service's own origin: a message gets Mira's typing (named from the start), then her reply", async ({ page, widget }) => {
  const refused: string[] = [];
  page.on("response", (response) => {
    if (response.url().includes("/api/") && response.status() >= 400) refused.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  await page.goto(`${SERVICE_URL}/demo`);
  await expect(page.getByRole("heading", { name: "Aurora Lamp" })).toBeVisible();
  await widget.open();

  let typing = await widget.watchTyping();
  await widget.said("How long does shipping take?");
  await expect.poll(typing).toContain("Mira from Lumen & Co. is typing…"); // the same person who then replies
  const reply = widget.message("Orders leave our warehouse within one business day and usually arrive in 3–5 days.");
  await expect(reply).toBeVisible();
  await expect(reply.locator(".nm")).toHaveText("Mira from Lumen & Co.");
  await expect(reply.locator(".av img")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expect(widget.typing).toHaveText("");

  // The answer matches the question: what shipping costs is not how long it takes.
  typing = await widget.watchTyping();
  await widget.said("How much is shipping?");
  await expect.poll(typing).toContain("Mira from Lumen & Co. is typing…");
  await expect(widget.message("Shipping is free on orders over $50; below that it's a flat $5.95.")).toBeVisible();
  await widget.input.blur();
  await screenshot(page, "13-demo-shop"); // the site config's brand colour and title; no dev overlay

  typing = await widget.watchTyping();
  await widget.said("And the price?");
  await expect.poll(typing).toContain("Mira from Lumen & Co. is typing…");
  await expect(widget.message("The Aurora lamp is $89, and there's free shipping on orders over $50.")).toBeVisible();
  expect(refused, "same-origin requests of the demo page are accepted").toEqual([]);
});

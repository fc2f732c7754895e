import { onlyConversation, staffSays } from "./support/admin";
import { STAFF } from "./support/env";
import { expect, screenshot, test } from "./support/fixtures";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });

test("on a phone the open widget fills the screen, and closes back to the launcher", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await widget.launcher.tap();
  await expect(widget.panel).toBeVisible();
  expect(await widget.panel.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });
  await expect(widget.launcher).toBeHidden(); // the panel's own close button takes its place

  await widget.said("Do you have it in green?");
  const conversation = await onlyConversation(site.id);
  await staffSays(conversation.id, STAFF.id, "Not yet — green arrives in March.");
  await expect(widget.message("Not yet — green arrives in March.").locator(".av img")).toBeVisible();
  await widget.input.blur();
  await screenshot(page, "05-mobile-fullscreen");

  await page.getByRole("button", { name: "Close chat" }).tap();
  await expect(widget.panel).toBeHidden();
  await expect(widget.launcher).toBeVisible();
});

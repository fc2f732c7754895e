import { SERVICE_URL } from "./support/env";
import { expect as baseExpect, screenshot, test } from "./support/fixtures";
import { png } from "./support/png";

// Images in chat under a Content-Security-Policy (issue 39, item 1). The widget shows an image from
// the bytes it fetched with the visitor token (a blob: URL); a host page whose policy has the lines
// docs/widget.md gives shows it, the demo page (its own strict policy) shows it, and a policy that
// refuses images leaves a download chip, never a broken box. Each test sends the file alone (a file
// starts the conversation by itself).

test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const lamp = { name: "lamp.png", mimeType: "image/png", buffer: png(8, 8, () => [250, 200, 40]) };

test("on a host page with the documented CSP lines, a sent image is shown", async ({ page, site, widget, pageProblems }) => {
  const violations: string[] = [];
  page.on("console", (m) => m.type() === "error" && /Content Security Policy/i.test(m.text()) && violations.push(m.text()));
  await page.goto(`${site.url}&csp=documented`);
  await widget.open();
  await widget.host.getByLabel("Add files").first().setInputFiles(lamp);
  const image = widget.host.locator(".me .at img");
  await expect(image).toHaveAttribute("src", /^blob:/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
  expect(violations, "the widget needs nothing the documented lines leave out").toEqual([]);
  await widget.input.blur();
  await screenshot(page, "14-image-strict-csp");
  expect(pageProblems).toEqual([]);
});

test("on a host page whose CSP refuses images, the image is a download chip instead", async ({ page, site, widget }) => {
  await page.goto(`${site.url}&csp=no-images`);
  await widget.open();
  await widget.host.getByLabel("Add files").first().setInputFiles(lamp);
  const chip = widget.host.locator(".me .at .fk", { hasText: "lamp.png" });
  await expect(chip).toBeVisible();
  await expect(widget.host.locator(".me .at img")).toHaveCount(0);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 760 });
  await widget.input.blur();
  await screenshot(page, "15-image-refused-chip-mobile-dark");
  const [download] = await Promise.all([page.waitForEvent("download"), chip.click()]);
  expect(download.suggestedFilename()).toBe("lamp.png");
});

test("on the demo page (the service's own strict policy), a sent image is shown", async ({ page, widget }) => {
  test.skip(Boolean(process.env.E2E_DATABASE_URL), "no demo site on PostgreSQL");
  await page.goto(`${SERVICE_URL}/demo`);
  await widget.open();
  await widget.host.getByLabel("Add files").first().setInputFiles(lamp);
  const image = widget.host.locator(".me .at img");
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
});

import type { Locator } from "@playwright/test";
import { must } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import { axeScan, signedInStaff } from "./support/inbox";

// The widget designed in the inbox (issue #26, item 3): Settings → Widget previews unsaved values in
// the real widget, Save applies them, and the customer's page shows them on its next load.

const background = (launcher: Locator) => launcher.evaluate((element) => getComputedStyle(element).backgroundColor);

test("an owner changes colour and greeting; the preview shows them before saving, a fresh widget after", async ({ browser, site, widget, page }) => {
  const name = `Designed ${site.id}`;
  await must("PATCH", `/sites/${site.id}`, { name });
  const owner = await signedInStaff(browser, "owner", "Design Owner");
  await owner.page.goto(`${SERVICE_URL}/inbox/settings`);
  // The run has many sites: each designer (and its preview) waits behind its button
  const disclosure = owner.page.getByRole("region", { name: `Widget: ${name}` }).getByRole("button", { name: "Design the widget" });
  await expect(disclosure).toHaveAttribute("aria-expanded", "false");
  await expect(owner.page.getByTitle(`Preview of the widget on ${site.id}`)).toHaveCount(0);
  await disclosure.click();
  await expect(disclosure).toHaveAttribute("aria-expanded", "true");
  const form = owner.page.getByRole("form", { name: `Widget: ${name}` });
  const preview = form.frameLocator("iframe[data-testid=widget-preview]");

  await form.getByLabel("Greeting").fill("Hello from the designer!");
  await form.getByLabel("Brand colour", { exact: true }).fill("#0a7d32");
  await expect(preview.locator("parley-chat #gr")).toHaveText("Hello from the designer!");
  await expect.poll(() => background(preview.locator("parley-chat button.l"))).toBe("rgb(10, 125, 50)");
  await expect(form.getByText("Text on it is white")).toBeVisible();
  // Nothing saved yet: the customer's page still has the widget's own greeting
  expect((await must("GET", "/sites")).find((s: { id: string }) => s.id === site.id)).toMatchObject({ greeting: null, brand_color: null });

  await form.getByRole("button", { name: "Save widget" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved: visitors see it on their next page load.");

  await page.goto(site.url);
  await widget.open();
  await expect(page.locator("parley-chat #gr")).toHaveText("Hello from the designer!");
  expect(await background(widget.launcher)).toBe("rgb(10, 125, 50)");
  await owner.context.close();
});

test("position left places the launcher and the panel on the left; the label shows on the launcher", async ({ site, widget, page }) => {
  await must("PATCH", `/sites/${site.id}`, { position: "left", launcher_label: "Questions?" });
  await page.setViewportSize({ width: 1200, height: 800 });
  await page.goto(site.url);
  await expect(widget.launcher).toHaveAttribute("data-label", "Questions?");
  const box = (await widget.launcher.boundingBox())!;
  expect(box.x).toBeLessThan(100);
  await widget.open();
  const panel = (await page.locator("parley-chat #p").boundingBox())!;
  expect(panel.x).toBeLessThan(100);
  await expect(widget.launcher).toHaveAttribute("aria-label", /^Questions\?: /);
});

test("axe: the settings page with the designer, light and dark, at 375 px", async ({ browser, site }) => {
  const owner = await signedInStaff(browser, "owner", "Axe Owner");
  const settings = owner.page;
  await settings.setViewportSize({ width: 375, height: 740 });
  await settings.goto(`${SERVICE_URL}/inbox/settings`);
  // Only this site's designer is opened: the other specs' sites keep theirs, and their previews, closed.
  await settings.locator(`section[aria-labelledby="widget-${site.id}-title"]`).getByRole("button", { name: "Design the widget" }).click();
  await expect(settings.locator("iframe[data-testid=widget-preview]")).toHaveCount(1);
  const ours = `Preview of the widget on ${site.id}`;
  // The preview has opened its panel and its fade-in is over: mid-animation the header's text is
  // partly transparent, which axe would measure as low contrast.
  const preview = settings.getByTitle(ours);
  await preview.scrollIntoViewIfNeeded();
  const panel = preview.contentFrame().locator("parley-chat #p");
  await expect(panel).toBeVisible();
  await expect.poll(() => panel.evaluate((element) => element.getAnimations().length)).toBe(0);
  // This site's designer, its disclosure button included: the whole settings page (every site's
  // closed designer) is scanned by inbox.spec.ts ("axe finds no serious or critical issue on the inbox pages").
  const designer = `section[aria-labelledby="widget-${site.id}-title"]`;
  await expect(settings.locator(`form[aria-labelledby="widget-${site.id}-title"]`)).toBeVisible();
  await expect(settings.locator(designer)).toHaveCount(1);
  await axeScan(settings, "settings with the widget designer at 375 px", designer);
  await settings.emulateMedia({ colorScheme: "dark" });
  await axeScan(settings, "settings with the widget designer at 375 px, dark", designer);
  await owner.context.close();
});

test("a German site keeps its launcher label and icons once the German strings arrive (only the panel is translated)", async ({ site, widget, page }) => {
  await must("PATCH", `/sites/${site.id}`, { locale: "de", launcher_label: "Fragen?" });
  await page.goto(site.url);
  const words = () => widget.launcher.evaluate((element) => getComputedStyle(element, "::after").content);
  await expect.poll(words).toBe('"Fragen?"');
  await widget.launcher.click();
  await expect(page.locator("parley-chat #x")).toHaveAttribute("aria-label", "Chat schließen"); // German has arrived and was applied
  await expect(widget.launcher.locator("svg")).toHaveCount(2); // the chat and close icons are still there
  await expect(widget.launcher.locator("#bg")).toHaveCount(1);
  await expect(widget.launcher).toHaveAttribute("aria-label", /^Fragen\?: Chat schließen/);
  await page.locator("parley-chat #x").click();
  await expect.poll(words).toBe('"Fragen?"');
  await expect(widget.launcher.locator("svg.i1")).toBeVisible();
});

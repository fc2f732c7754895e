import { must } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import { axeScan, inboxScreenshot, signedInStaff } from "./support/inbox";

// The inbox's article editor (docs/answers.md, "Writing articles"): an owner writes an article with
// a live preview through the one renderer (hostile Markdown inert there too), publishes it, sees
// it on the public help center, and unpublishes it (the help center answers 404 again).

test("an owner writes an article with a live preview, publishes it and sees it on /help; unpublished it is gone", async ({ browser, site }) => {
  test.setTimeout(240_000); // a sign-in, four inbox pages and two help pages on `next dev`
  await must("PATCH", `/sites/${site.id}`, { help_center: { enabled: true, title: "Lamp help" } });
  const owner = await signedInStaff(browser, "owner", "Ada Articles");
  const page = owner.page;

  // Generous first waits: `next dev` may still be compiling these pages.
  await page.getByRole("link", { name: "Articles" }).first().click();
  await expect(page.getByRole("heading", { name: "Articles", level: 1 })).toBeVisible({ timeout: 60_000 });
  await page.getByRole("link", { name: "New article" }).click();
  await expect(page.getByRole("heading", { name: "New article", level: 1 })).toBeVisible({ timeout: 60_000 });
  await page.getByLabel("Site").selectOption(site.id);
  const slug = `care-${Date.now().toString(36)}`;
  await page.getByLabel("Title").fill("Caring for the Aurora lamp");
  await page.getByLabel("Address (slug)").fill(slug);
  await page.getByLabel("Collection").fill("The lamp");
  await page.getByLabel("Text (Markdown)").fill(
    "Wipe it with a **dry cloth**.\n\n## Cleaning the shade\n\n<script>window.__pwned = 1</script>\n\n[Bad](javascript:alert(1)) and [our shop](https://shop.example/care).\n\n![pixel](http://tracker.example/p.png)",
  );
  const preview = page.getByTestId("article-preview");
  await expect(preview.locator("strong")).toHaveText("dry cloth");
  await expect(preview.getByRole("heading", { name: "Cleaning the shade", level: 2 })).toBeVisible();
  await expect(preview.getByText("<script>window.__pwned = 1</script>")).toBeVisible(); // raw HTML is text
  await expect(preview.locator("script, img")).toHaveCount(0);
  await expect(preview.locator('a[href^="javascript:"]')).toHaveCount(0);
  await expect(preview.getByRole("link", { name: "our shop" })).toHaveAttribute("href", "https://shop.example/care");
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await inboxScreenshot(page, "article-editor-1280-light");

  await page.getByRole("button", { name: "Save and publish" }).click();
  await expect(page.getByRole("heading", { name: "Caring for the Aurora lamp", level: 1 })).toBeVisible({ timeout: 60_000 });
  const status = page.getByTestId("article-status");
  await expect(status).toContainText("Published");
  const publicUrl = `${SERVICE_URL}/help/${site.id}/en/${slug}`;
  await expect(status.getByRole("link", { name: publicUrl })).toBeVisible();
  await axeScan(page, "the article editor");
  await page.emulateMedia({ colorScheme: "dark" });
  await inboxScreenshot(page, "article-editor-1280-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await inboxScreenshot(page, "article-editor-390-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await inboxScreenshot(page, "article-editor-390-light");
  await page.setViewportSize({ width: 1280, height: 800 });

  const help = await owner.context.newPage();
  expect((await help.goto(publicUrl, { timeout: 60_000 }))?.status()).toBe(200);
  await expect(help.getByRole("heading", { name: "Caring for the Aurora lamp", level: 1 })).toBeVisible();
  await expect(help.locator("article strong")).toHaveText("dry cloth");
  await expect(help.locator("article script")).toHaveCount(0);
  expect((await help.goto(`${SERVICE_URL}/help/${site.id}`))?.status()).toBe(200);
  await expect(help.getByRole("region", { name: "The lamp" }).getByRole("link", { name: "Caring for the Aurora lamp" })).toBeVisible();

  await page.getByRole("button", { name: "Unpublish" }).click();
  await expect(status).toContainText("Draft: not public", { timeout: 60_000 }); // the first PATCH may compile its route
  expect((await help.goto(publicUrl))?.status()).toBe(404);

  await page.getByRole("link", { name: "← Articles" }).click();
  const row = page.getByTestId("articles").getByRole("row", { name: /Caring for the Aurora lamp/ });
  await expect(row).toContainText("Draft");
  await owner.context.close();
});

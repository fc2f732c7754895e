import { must } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";

// The public help center (docs/answers.md): plain server-rendered pages that work with JavaScript
// off, under a strict policy. Each test writes its own site's articles through
// the operator API.

test.use({ javaScriptEnabled: false });

const article = (siteId: string, fields: Record<string, unknown>) => must("POST", "/articles", { site_id: siteId, ...fields });

test("the help center works without JavaScript: collections, the search form, the sanitized article, canonical and hreflang, 404s", async ({ page, site }) => {
  await must("PATCH", `/sites/${site.id}`, { help_center: { enabled: true, title: "Lamp help" }, brand_color: "#facc15" });
  await article(site.id, {
    title: "How long does shipping take?",
    slug: "shipping",
    collection: "Orders",
    status: "published",
    body: "Shipping: parcels leave **within a day**.\n\n<script>alert(1)</script>\n\n[Track it](javascript:alert(2)) or [our carrier](https://carrier.example/track).\n\n![pixel](http://tracker.example/p.png)",
  });
  await article(site.id, { title: "Versand", slug: "shipping", locale: "de", collection: "Orders", status: "published", body: "Pakete gehen **innerhalb eines Tages** raus." });
  await article(site.id, { title: "Returns and refunds", slug: "returns", collection: "Orders", status: "published", body: "Thirty days." });
  await article(site.id, { title: "Secret roadmap", slug: "roadmap", status: "draft", body: "Not yet." });

  const home = await page.goto(`${SERVICE_URL}/help/${site.id}`);
  expect(home?.status()).toBe(200);
  const policy = home?.headers()["content-security-policy"] ?? "";
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain("img-src https:");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(home?.headers()["x-content-type-options"]).toBe("nosniff");
  expect(home?.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("How can we help?");
  const orders = page.getByRole("region", { name: "Orders" });
  await expect(orders.getByRole("link")).toHaveText(["How long does shipping take?", "Returns and refunds", "Versand"], { useInnerText: true });
  await expect(page.getByText("Secret roadmap")).toHaveCount(0);
  // Three articles, all in the one collection: a "Popular" list would only repeat them.
  await expect(page.getByRole("heading", { name: "Popular articles" })).toHaveCount(0);
  // Dark text on a light brand colour, so the title stays readable.
  await expect(page.getByRole("link", { name: "Lamp help" })).toHaveCSS("color", "rgb(17, 24, 39)");

  await page.getByRole("searchbox", { name: "Search articles" }).fill("shipping");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`/help/${site.id}\\?q=shipping$`));
  const results = page.getByRole("region", { name: /Results for/ });
  await expect(results.getByRole("link", { name: "How long does shipping take?" })).toBeVisible();
  await expect(results.locator("mark").first()).toHaveText(/shipping/i);

  await results.getByRole("link", { name: "How long does shipping take?" }).click();
  await expect(page).toHaveURL(new RegExp(`/help/${site.id}/en/shipping$`));
  const body = page.locator("article");
  await expect(body.getByRole("heading", { level: 1 })).toHaveText("How long does shipping take?");
  await expect(body.locator("strong")).toHaveText("within a day");
  await expect(body.locator("script")).toHaveCount(0);
  await expect(body.locator("img")).toHaveCount(0); // http image dropped
  await expect(body.getByRole("link", { name: "our carrier" })).toHaveAttribute("href", "https://carrier.example/track");
  await expect(body.locator('a[href^="javascript:"]')).toHaveCount(0);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`/help/${site.id}/en/shipping$`));
  await expect(page.locator('link[rel="alternate"][hreflang="de"]')).toHaveAttribute("href", new RegExp(`/help/${site.id}/de/shipping$`));
  await expect(page.getByRole("navigation", { name: "Other languages" }).getByRole("link", { name: "de" })).toBeVisible();

  const draft = await page.goto(`${SERVICE_URL}/help/${site.id}/en/roadmap`);
  expect(draft?.status()).toBe(404);
  await expect(page.getByText("Secret roadmap")).toHaveCount(0);

  await must("PATCH", `/sites/${site.id}`, { help_center: { enabled: false } });
  for (const path of [`/help/${site.id}`, `/help/${site.id}/en/shipping`, `/help/${site.id}/sitemap.xml`]) {
    expect((await page.request.get(`${SERVICE_URL}${path}`)).status(), path).toBe(404);
  }
  expect((await page.goto(`${SERVICE_URL}/help/${site.id}?q=shipping`))?.status()).toBe(404);
  await expect(page.getByText("Lamp help")).toHaveCount(0);
});

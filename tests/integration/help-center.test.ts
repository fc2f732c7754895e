import { beforeAll, describe, expect, test } from "vitest";
import { helpCenterArticle, helpCenterHome } from "../../lib/articles/help-center";
import { GET as sitemap } from "../../app/help/[siteID]/sitemap.xml/route";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite } from "../support/fixtures";

// The public help center (decisions.md, round 4, "Help center (self-service)"): the site setting,
// what its pages show (published articles of that site only), and 404 for drafts, other sites'
// articles and a disabled help center.

const ADMIN = "/api/v1/admin/articles";
let siteId: string;
let otherSiteId: string;

async function write(body: Record<string, unknown>, site = siteId) {
  const response = await api.post(ADMIN, { admin: true, body: { site_id: site, ...body } });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.result as { id: string; url: string };
}

const enable = (site: string, help_center: Record<string, unknown>) => api.patch(`/api/v1/admin/sites/${site}`, { admin: true, body: { help_center } });

const sitemapOf = (site: string) => sitemap(new Request(`http://localhost:3000/help/${site}/sitemap.xml`), { params: Promise.resolve({ siteID: site }) });

const notFound = async (work: Promise<unknown>) => expect(await work.then(() => "found", (error) => error.code)).toBe("not_found");

beforeAll(async () => {
  siteId = (await createSite()).id;
  otherSiteId = (await createSite()).id;
  await write({ title: "Shipping times", body: "## Europe\n\nTwo days. [Track](https://track.example)", slug: "shipping", collection: "Orders", status: "published" });
  await write({ title: "Versandzeiten", body: "Zwei Tage.", slug: "shipping", locale: "de", collection: "Orders", status: "published" });
  await write({ title: "Secret plans", body: "Not yet.", slug: "plans", status: "draft" });
  await write({ title: "Other site's", body: "Elsewhere.", slug: "elsewhere", status: "published" }, otherSiteId);
});

describe("the help_center site setting", () => {
  test("off by default with the site's name as title; either field changes alone; a bad title is a 400, nothing changed", async () => {
    const site = await createSite();
    const read = async () => ((await api.get("/api/v1/admin/sites", { admin: true })).json.result as { id: string; help_center: unknown; answers: string }[]).find((s) => s.id === site.id)!;
    expect(await read()).toMatchObject({ help_center: { enabled: false, title: site.id }, answers: "off" });
    expect((await enable(site.id, { enabled: true })).json.result.help_center).toEqual({ enabled: true, title: site.id });
    expect((await enable(site.id, { title: "Lumen help" })).json.result.help_center).toEqual({ enabled: true, title: "Lumen help" });
    for (const bad of [{ title: "" }, { title: "x".repeat(81) }, { title: "two\nlines" }, { enabled: "yes" }, { other: 1 }]) {
      expectError(await enable(site.id, bad), 400, "invalid_request");
    }
    expectError(await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { answers: "sometimes" } }), 400, "invalid_request");
    expect(await read()).toMatchObject({ help_center: { enabled: true, title: "Lumen help" }, answers: "off" });
  });
});

describe("the public pages", () => {
  test("a disabled help center: home, article and sitemap are 404", async () => {
    await notFound(helpCenterHome(siteId));
    await notFound(helpCenterArticle(siteId, "en", "shipping"));
    expect((await sitemapOf(siteId)).status).toBe(404);
    expect((await sitemapOf("no-such-site")).status).toBe(404);
    expect((await sitemapOf("%E0%A4%A")).status).toBe(404);
  });

  test("enabled: the home lists published articles of this site by collection, never drafts or other sites'", async () => {
    expect((await enable(siteId, { enabled: true, title: "Help" })).status).toBe(200);
    const home = await helpCenterHome(siteId);
    expect(home.site.title).toBe("Help");
    expect(home.collections.map((c) => [c.name, c.articles.map((a) => `${a.locale}/${a.slug}`)])).toEqual([["Orders", ["en/shipping", "de/shipping"]]]);
    expect(home.popular.map((a) => a.slug).sort()).toEqual(["shipping", "shipping"]);
  });

  test("an article renders through the sanitizer, with its other locales as alternates; drafts and other sites' articles are 404", async () => {
    const { article, alternates } = await helpCenterArticle(siteId, "en", "shipping");
    expect(article.html).toContain("<h2>Europe</h2>");
    expect(article.html).toContain('<a href="https://track.example/" rel="nofollow noopener noreferrer">Track</a>');
    expect(article.url).toBe(`http://localhost:3000/help/${siteId}/en/shipping`);
    expect(alternates.map((a) => [a.locale, a.url])).toEqual([["de", `http://localhost:3000/help/${siteId}/de/shipping`]]);
    await notFound(helpCenterArticle(siteId, "en", "plans"));
    await notFound(helpCenterArticle(siteId, "en", "elsewhere"));
    await notFound(helpCenterArticle(siteId, "fr", "shipping"));
  });

  test("the sitemap lists the home and every published article, nothing else", async () => {
    const response = await sitemapOf(siteId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await response.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => loc);
    expect(locs).toEqual([`http://localhost:3000/help/${siteId}`, `http://localhost:3000/help/${siteId}/de/shipping`, `http://localhost:3000/help/${siteId}/en/shipping`]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
  });
});

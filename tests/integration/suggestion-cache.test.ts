import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { suggestionCacheSize } from "../../lib/articles/suggestion-cache";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";

// The widget's suggestions are kept per site for a while (lib/articles/suggestion-cache.ts): the
// same words give the same answer without the database until an article of the site is written
// through the service, which forgets that site's answers at once. Small here, to see the bound.
process.env.SUGGESTION_CACHE_KIB = "16";

let siteId: string;
let otherSiteId: string;
let shipping: { id: string };
let elsewhere: { id: string };

const suggest = async (q: string, site = siteId) => {
  const response = await api.get(`/api/v1/chat/widget/${site}/articles?limit=3&q=${encodeURIComponent(q)}`, { origin: ORIGIN });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return (response.json.result.items as { title: string }[]).map((item) => item.title);
};
const admin = {
  create: async (body: Record<string, unknown>) => {
    const response = await api.post("/api/v1/admin/articles", { admin: true, body });
    expect(response.status, JSON.stringify(response.json)).toBe(201);
    return response.json.result as { id: string };
  },
  update: async (id: string, body: Record<string, unknown>) => expect((await api.patch(`/api/v1/admin/articles/${id}`, { admin: true, body })).status).toBe(200),
  remove: async (id: string) => expect((await api.delete(`/api/v1/admin/articles/${id}`, { admin: true })).status).toBe(200),
};
/** A write the service does not see (as another instance's would be): only the TTL ends a cached answer then. */
const retitleBehindTheCache = async (id: string, title: string) => (await db()).article.update({ where: { id }, data: { title } });

beforeAll(async () => {
  siteId = (await createSite()).id;
  otherSiteId = (await createSite()).id;
  for (const site of [siteId, otherSiteId]) {
    expect((await api.patch(`/api/v1/admin/sites/${site}`, { admin: true, body: { help_center: { enabled: true } } })).status).toBe(200);
  }
  shipping = await admin.create({ site_id: siteId, title: "How long does shipping take?", body: "Orders ship within two days.", status: "published" });
  elsewhere = await admin.create({ site_id: otherSiteId, title: "Shipping elsewhere", body: "Another site's shipping.", status: "published" });
});

describe("a cached answer", () => {
  test("is served again for the same words, whatever their case and spacing, until an article of the site is written", async () => {
    expect(await suggest("shipping")).toEqual(["How long does shipping take?"]);
    await retitleBehindTheCache(shipping.id, "Shipping times");
    expect(await suggest("  SHIPPING ")).toEqual(["How long does shipping take?"]);
    await admin.create({ site_id: siteId, title: "Returns", body: "Return any item within 30 days.", status: "draft" });
    expect(await suggest("shipping")).toEqual(["Shipping times"]);
  });

  test("a write on another site leaves this site's answers alone", async () => {
    expect(await suggest("shipping", otherSiteId)).toEqual(["Shipping elsewhere"]);
    await retitleBehindTheCache(elsewhere.id, "Shipping far away");
    await admin.update(shipping.id, { body: "Orders ship within three days." });
    expect(await suggest("shipping", otherSiteId)).toEqual(["Shipping elsewhere"]);
  });
});

describe("an article written through the service shows in the next suggestion", () => {
  test("a new published article", async () => {
    expect(await suggest("warranty")).toEqual([]);
    await admin.create({ site_id: siteId, title: "Warranty terms", body: "Two years of warranty.", status: "published" });
    expect(await suggest("warranty")).toEqual(["Warranty terms"]);
  });

  test("a changed title, an unpublished article, a deleted one", async () => {
    const article = await admin.create({ site_id: siteId, title: "Gift cards", body: "Gift cards never expire.", status: "published" });
    expect(await suggest("gift")).toEqual(["Gift cards"]);
    await admin.update(article.id, { title: "Gift vouchers" });
    expect(await suggest("gift")).toEqual(["Gift vouchers"]);
    await admin.update(article.id, { status: "draft" });
    expect(await suggest("gift")).toEqual([]);
    await admin.update(article.id, { status: "published" });
    expect(await suggest("gift")).toEqual(["Gift vouchers"]);
    await admin.remove(article.id);
    expect(await suggest("gift")).toEqual([]);
  });

  test("the most viewed (the empty query) too", async () => {
    const before = await suggest("");
    const article = await admin.create({ site_id: siteId, title: "Opening hours", body: "We answer from 9 to 5.", status: "published" });
    await (await db()).article.update({ where: { id: article.id }, data: { views: 1_000_000 } }); // behind the cache, as views are counted
    await admin.update(article.id, { collection: "About us" });
    expect(await suggest("")).toEqual(["Opening hours", ...before].slice(0, 3));
  });
});

test("turning the help center off is a 404 at once, cached answers or not", async () => {
  expect(await suggest("shipping")).not.toEqual([]);
  expect((await api.patch(`/api/v1/admin/sites/${siteId}`, { admin: true, body: { help_center: { enabled: false } } })).status).toBe(200);
  expectError(await api.get(`/api/v1/chat/widget/${siteId}/articles?limit=3&q=shipping`, { origin: ORIGIN }), 404, "not_found");
  expect((await api.patch(`/api/v1/admin/sites/${siteId}`, { admin: true, body: { help_center: { enabled: true } } })).status).toBe(200);
});

test("the cache holds at most SUGGESTION_CACHE_KIB, dropping the least recently used", async () => {
  for (let i = 0; i < 300; i++) await suggest(`shipping ${i}`);
  const { entries, bytes } = suggestionCacheSize();
  expect(bytes).toBeGreaterThan(8 * 1024);
  expect(bytes).toBeLessThanOrEqual(16 * 1024);
  expect(entries).toBeLessThan(300);
});

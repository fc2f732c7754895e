import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { stateSnapshot, exceptActivity } from "../support/state-snapshot";

// Help center articles (decisions.md, round 4, "Help center (self-service)"): members read, owners
// write, the operator API the same; slugs unique per site and locale; full-text search with the
// inbox search's rules. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.

const INBOX = "/api/v1/inbox/articles";
const ADMIN = "/api/v1/admin/articles";

interface Article {
  id: string;
  site_id: string;
  title: string;
  body: string;
  locale: string;
  slug: string;
  collection: string | null;
  status: "draft" | "published";
  url: string;
  published_at: string | null;
  views: number;
  helpful: number;
  not_helpful: number;
  snippet?: string;
}

let owner: Staff;
let agent: Staff;
let siteId: string;

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  siteId = (await createSite()).id;
});

async function write(body: Record<string, unknown>, site = siteId): Promise<Article> {
  const response = await api.post(ADMIN, { admin: true, body: { site_id: site, ...body } });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.result as Article;
}

const list = async (query: string, staff: Staff | null = agent) => {
  const response = staff ? await api.get(`${INBOX}?${query}`, as(staff)) : await api.get(`${ADMIN}?${query}`, { admin: true });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json.result as Article[];
};

const state = async () => exceptActivity(await stateSnapshot());

describe("articles: writing", () => {
  test("a new article: the slug made from the title, the site's locale (else en), a draft, with counts and a help center url", async () => {
    const article = await write({ title: "Où est ma commande ? Shipping & returns", body: "It ships in **two days**." });
    expect(article).toMatchObject({ slug: "ou-est-ma-commande-shipping-returns", locale: "en", status: "draft", collection: null, published_at: null, views: 0, helpful: 0, not_helpful: 0 });
    expect(article.url).toBe(`http://localhost:3000/help/${siteId}/en/ou-est-ma-commande-shipping-returns`);
    const german = (await createSite()).id;
    expect((await api.patch(`/api/v1/admin/sites/${german}`, { admin: true, body: { locale: "de" } })).status).toBe(200);
    expect((await write({ title: "Versand", body: "Zwei Tage." }, german)).locale).toBe("de");
  });

  test("the same slug in the same site and locale → 409 already_exists, nothing changed; another locale or site is fine", async () => {
    await write({ title: "Pricing", body: "Plans.", slug: "pricing" });
    const before = await state();
    expectError(await api.post(ADMIN, { admin: true, body: { site_id: siteId, title: "Prices", body: "Other.", slug: "pricing" } }), 409, "already_exists");
    expectError(await api.post(ADMIN, { admin: true, body: { site_id: siteId, title: "Pricing", body: "Derived slug." } }), 409, "already_exists");
    expect(await state()).toEqual(before);
    await write({ title: "Preise", body: "Pläne.", slug: "pricing", locale: "de" });
    await write({ title: "Pricing", body: "Plans.", slug: "pricing" }, (await createSite()).id);
  });

  test("bad fields → 400 with the field named; an unknown site → 404; nothing changed", async () => {
    const before = await state();
    const bad = [
      { title: "", body: "x" },
      { title: "x".repeat(161), body: "x" },
      { title: "T", body: "x".repeat(50_001) },
      { title: "T", body: "x", slug: "Not A Slug" },
      { title: "T", body: "x", slug: "a".repeat(101) },
      { title: "T", body: "x", locale: "not a locale!" },
      { title: "T", body: "x", collection: "c".repeat(61) },
      { title: "T", body: "x", status: "archived" },
      { title: "T", body: "x", views: 10 },
    ];
    for (const body of bad) expectError(await api.post(ADMIN, { admin: true, body: { site_id: siteId, ...body } }), 400, "invalid_request");
    expectError(await api.post(ADMIN, { admin: true, body: { site_id: "no-such-site", title: "T", body: "x" } }), 404, "site_not_found");
    expect(await state()).toEqual(before);
  });

  test("publishing sets published_at once; a change of slug to a taken one → 409; delete → then 404", async () => {
    const article = await write({ title: "Returns policy", body: "Thirty days.", collection: "Orders" });
    const published = await api.patch(`${ADMIN}/${article.id}`, { admin: true, body: { status: "published" } });
    expect(published.status).toBe(200);
    const first = published.json.result.published_at as string;
    expect(first).not.toBeNull();
    await api.patch(`${ADMIN}/${article.id}`, { admin: true, body: { status: "draft" } });
    const again = await api.patch(`${ADMIN}/${article.id}`, { admin: true, body: { status: "published", title: "Returns" } });
    expect(again.json.result).toMatchObject({ published_at: first, title: "Returns", slug: "returns-policy" });
    const other = await write({ title: "Exchanges", body: "Swap it." });
    expectError(await api.patch(`${ADMIN}/${other.id}`, { admin: true, body: { slug: "returns-policy" } }), 409, "already_exists");
    expect((await api.delete(`${ADMIN}/${other.id}`, { admin: true })).json.result).toEqual({ id: other.id, deleted: true });
    expectError(await api.delete(`${ADMIN}/${other.id}`, { admin: true }), 404, "not_found");
    expectError(await api.patch(`${ADMIN}/${other.id}`, { admin: true, body: { title: "Back" } }), 404, "not_found");
  });
});

describe("articles: who may do what", () => {
  test("members read; only owners write (agents 403 forbidden, nothing changed); no session 401", async () => {
    const article = await write({ title: "Agents read this", body: "Readable." });
    expect((await list(`site=${siteId}`, agent)).map((a) => a.id)).toContain(article.id);
    const before = await state();
    expectError(await api.post(INBOX, as(agent, { body: { site_id: siteId, title: "Mine", body: "No." } })), 403, "forbidden");
    expectError(await api.patch(`${INBOX}/${article.id}`, as(agent, { body: { title: "Changed" } })), 403, "forbidden");
    expectError(await api.delete(`${INBOX}/${article.id}`, as(agent)), 403, "forbidden");
    expectError(await api.get(INBOX, as(null)), 401, "unauthorized");
    expectError(await api.get(ADMIN), 401, "unauthorized");
    expect(await state()).toEqual(before);
    const made = await api.post(INBOX, as(owner, { body: { site_id: siteId, title: "Owner's article", body: "Yes." } }));
    expect(made.status).toBe(201);
    expect((await api.patch(`${INBOX}/${made.json.result.id}`, as(owner, { body: { status: "published" } }))).json.result.status).toBe("published");
    expect((await api.delete(`${INBOX}/${made.json.result.id}`, as(owner))).status).toBe(200);
  });
});

describe("articles: search", () => {
  let searchSite: string;
  beforeAll(async () => {
    searchSite = (await createSite()).id;
    await write({ title: "How long does shipping take?", body: "Orders are shipped within two business days. Delivery to Zürich takes one more day.", status: "published" }, searchSite);
    await write({ title: "Returns", body: "You can return any item within 30 days for a full refund.", status: "published" }, searchSite);
    await write({ title: "Draft about shipping", body: "Not yet live: shipping to the moon.", status: "draft" }, searchSite);
  });

  test("stemming, accents and the last word as a prefix; << >> snippets; status and locale filter", async () => {
    const shipped = await list(`site=${searchSite}&q=ships`);
    expect(shipped.map((a) => a.title).sort()).toEqual(["Draft about shipping", "How long does shipping take?"]);
    expect(shipped.find((a) => a.title.startsWith("How"))!.snippet).toContain("<<shipped>>");
    expect((await list(`site=${searchSite}&q=shipping&status=published`)).map((a) => a.title)).toEqual(["How long does shipping take?"]);
    expect((await list(`site=${searchSite}&q=zurich`)).map((a) => a.title)).toEqual(["How long does shipping take?"]);
    expect((await list(`site=${searchSite}&q=ref`)).map((a) => a.title)).toEqual(["Returns"]);
    expect(await list(`site=${searchSite}&q=shipping&locale=de`)).toEqual([]);
    expect((await list(`site=${searchSite}&q=refund`, null)).map((a) => a.title)).toEqual(["Returns"]);
  });

  test("full-text operators and punctuation are a 200 (never a 500); an empty q is a 400", async () => {
    for (const q of ["!", "&|", "ship & !", "(((", "'", ":*", "ship:*", "\\", '"unclosed', "-", "or"]) {
      const response = await api.get(`${INBOX}?site=${searchSite}&q=${encodeURIComponent(q)}`, as(agent));
      expect(response.status, q).toBe(200);
    }
    expectError(await api.get(`${INBOX}?q=`, as(agent)), 400, "invalid_request");
    expectError(await api.get(`${INBOX}?q=${"x".repeat(201)}`, as(agent)), 400, "invalid_request");
  });
});

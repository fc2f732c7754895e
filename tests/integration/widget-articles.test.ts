import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { forwardedFor, randomIp } from "../support/rate-limits";
import { stateSnapshot } from "../support/state-snapshot";

// The widget's article routes (decisions.md, round 4, "Help center (self-service)"): Origin
// allowlist and CORS as every widget route, a per-IP limit, 404 while the help center is off, and
// search input that is a 200 or a 400, never a 500.
process.env.RATE_LIMITS = "on";
process.env.TRUSTED_PROXY_HOPS = "1";
process.env.RATE_LIMIT_ARTICLES_PER_MINUTE = "1000";

let siteId: string;
let shipping: { id: string; url: string };
let draft: { id: string };
let foreign: { id: string };

const base = (site = siteId) => `/api/v1/chat/widget/${site}/articles`;
const get = (path: string, origin: string | null = ORIGIN, ip = randomIp()) => api.get(path, { origin, headers: forwardedFor(ip) });
const vote = (id: string, body: unknown, site = siteId) => api.post(`${base(site)}/${id}/feedback`, { origin: ORIGIN, body, headers: forwardedFor(randomIp()) });

async function write(body: Record<string, unknown>, site = siteId) {
  const response = await api.post("/api/v1/admin/articles", { admin: true, body: { site_id: site, ...body } });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.result as { id: string; url: string };
}
const articleById = async (id: string) =>
  ((await api.get(`/api/v1/admin/articles?site=${siteId}`, { admin: true })).json.result as { id: string; views: number; helpful: number; not_helpful: number }[]).find((a) => a.id === id)!;

beforeAll(async () => {
  siteId = (await createSite()).id;
  const other = (await createSite()).id;
  shipping = await write({ title: "How long does shipping take?", body: "## Times\n\nOrders **ship** within two days. <script>alert(1)</script>", status: "published" });
  await write({ title: "Returns", body: "Return any item within 30 days for a refund.", status: "published" });
  draft = await write({ title: "Shipping to Mars", body: "Draft: shipping soon.", status: "draft" });
  foreign = await write({ title: "Shipping elsewhere", body: "Another site's shipping.", status: "published" }, other);
});

describe("while the help center is off", () => {
  test("every article route is 404, with CORS for the page; nothing changed", async () => {
    const before = await stateSnapshot();
    for (const response of [await get(`${base()}?q=shipping`), await get(`${base()}/${shipping.id}`), await vote(shipping.id, { helpful: true })]) {
      expectError(response, 404, "not_found");
      expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    }
    expect(await stateSnapshot()).toEqual(before);
  });
});

describe("with the help center on", () => {
  beforeAll(async () => {
    expect((await api.patch(`/api/v1/admin/sites/${siteId}`, { admin: true, body: { help_center: { enabled: true } } })).status).toBe(200);
  });

  test("an unknown site is 404 site_not_found; an origin not on the allowlist 403, before anything else", async () => {
    expectError(await get(`${base("no-such-site")}?q=x`), 404, "site_not_found");
    expectError(await get(`${base()}?q=x`, "https://evil.example"), 403, "origin_not_allowed");
    expectError(await get(`${base()}?q=x`, null), 403, "origin_not_allowed");
  });

  test("q finds published articles of this site with << >> snippets (stemming, prefix); an empty q lists the most viewed", async () => {
    const found = await get(`${base()}?q=shipped&limit=3`);
    expect(found.status).toBe(200);
    expect(found.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(found.json.result.items).toEqual([{ id: shipping.id, title: "How long does shipping take?", snippet: expect.stringContaining("<<ship>>"), url: shipping.url, locale: "en" }]);
    expect((await get(`${base()}?q=refu`)).json.result.items.map((i: { title: string }) => i.title)).toEqual(["Returns"]);
    const popular = (await get(base())).json.result.items as { title: string; snippet: string }[];
    expect(popular.map((i) => i.title).sort()).toEqual(["How long does shipping take?", "Returns"]);
    expect(popular.find((i) => i.title === "Returns")!.snippet).toBe("Return any item within 30 days for a refund.");
    expect((await get(`${base()}?locale=de`)).json.result.items).toEqual([]);
  });

  test("reading an article renders it safely and counts a view; drafts and other sites' articles are 404", async () => {
    const before = (await articleById(shipping.id)).views;
    const read = await get(`${base()}/${shipping.id}`);
    expect(read.status).toBe(200);
    expect(read.json.result).toMatchObject({ id: shipping.id, title: "How long does shipping take?", url: shipping.url, locale: "en" });
    expect(read.json.result.body_html).toContain("<strong>ship</strong>");
    expect(read.json.result.body_html).not.toContain("<script");
    expect((await articleById(shipping.id)).views).toBe(before + 1);
    expectError(await get(`${base()}/${draft.id}`), 404, "not_found");
    expectError(await get(`${base()}/${foreign.id}`), 404, "not_found");
  });

  test("votes: one per visitor_id (a second replaces the first); without one, each counts; bad bodies 400", async () => {
    const returns = (await get(`${base()}?q=returns`)).json.result.items[0].id as string;
    expect((await vote(returns, { helpful: true, visitor_id: "v-1" })).status).toBe(201);
    expect((await vote(returns, { helpful: false, visitor_id: "v-1" })).status).toBe(201);
    expect((await vote(returns, { helpful: true })).status).toBe(201);
    expect(await articleById(returns)).toMatchObject({ helpful: 1, not_helpful: 1 });
    for (const body of [{}, { helpful: "yes" }, { helpful: true, visitor_id: "" }, { helpful: true, extra: 1 }]) expectError(await vote(returns, body), 400, "invalid_request");
    expectError(await vote(draft.id, { helpful: true }), 404, "not_found");
  });

  test("bad limit or locale → 400", async () => {
    // The limit is plain digits, as every list's (lib/core/validation/cursors.ts): no hex, sign, exponent or spaces.
    for (const query of ["limit=0", "limit=21", "limit=x", "limit=0x10", "limit=%205", "limit=%2B5", "limit=1e1", "limit=", "locale=%20", "other=1"]) {
      expectError(await get(`${base()}?${query}`), 400, "invalid_request");
    }
    expect((await get(`${base()}?limit=20`)).status).toBe(200);
  });

  test("any q, full-text operators included, is a 200 or a 400, never a 500 (property)", async () => {
    const operatorish = fc.stringMatching(/^[ a-z&|!:*()'"<>\\\-+~@#%^.,;éü]{0,40}$/);
    await fc.assert(
      fc.asyncProperty(fc.oneof(operatorish, fc.string({ maxLength: 60 }), fc.string({ unit: "binary", maxLength: 30 })), async (q) => {
        const response = await get(`${base()}?q=${encodeURIComponent(q)}`);
        expect([200, 400], `${JSON.stringify(q)}: ${JSON.stringify(response.json)}`).toContain(response.status);
      }),
      { numRuns: 150 },
    );
  });
});

import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN, OTHER_ORIGIN, startConversation } from "../support/fixtures";
import { rowCounts } from "../support/row-counts";

let siteId: string;
const record = (body: unknown, origin: string | null = ORIGIN, site = () => siteId) =>
  api.post(`/api/v1/chat/widget/${site()}/visitors`, { origin, body });
const listPageViews = async (id = siteId) => {
  const response = await api.get(`/api/v1/admin/page-views?site=${id}`, { admin: true });
  expect(response.status).toBe(200);
  return response.json.result as Record<string, unknown>[];
};

beforeAll(async () => {
  siteId = (await createSite()).id;
});

describe("recording a page view", () => {
  test("answers 201 with result null, and the operator lists it", async () => {
    const site = await createSite();
    const response = await record(
      { page_url: "https://shop.example/cart?x=1", page_title: "Cart", referrer: "https://search.example/?q=shoes", visitor_id: "v-123" },
      ORIGIN,
      () => site.id,
    );
    expect(response.status).toBe(201);
    expect(response.json).toEqual({ success: true, result: null, message: expect.any(String) });
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const [listed] = await listPageViews(site.id);
    expect(listed).toEqual({
      id: expect.any(String),
      site_id: site.id,
      origin: ORIGIN,
      visitor_id: "v-123",
      page_url: "https://shop.example/cart?x=1",
      page_title: "Cart",
      referrer: "https://search.example/?q=shoes",
      created_at: expect.any(String),
    });
  });

  test("only page_url is required; referrer may be empty", async () => {
    expect((await record({ page_url: "http://shop.example/" })).status).toBe(201);
    expect((await record({ page_url: "https://shop.example/", referrer: "", page_title: "" })).status).toBe(201);
  });

  test("bounds are inclusive: a 2000-character URL, a 300-character title, a 100-character visitor id", async () => {
    const pageUrl = `https://shop.example/${"p".repeat(2000 - "https://shop.example/".length)}`;
    expect(pageUrl).toHaveLength(2000);
    const response = await record({ page_url: pageUrl, page_title: "t".repeat(300), visitor_id: "v".repeat(100), referrer: `https://r.example/${"r".repeat(1982)}` });
    expect(response.status).toBe(201);
  });

  test("the visitor id grants nothing: it is a label, not a credential", async () => {
    const site = await createSite();
    const started = await startConversation(site.id);
    const response = await record({ page_url: "https://shop.example/", visitor_id: started.token }, ORIGIN, () => site.id);
    expect(response.json.result).toBeNull();
    // A visitor id is no token: visitor routes still want the real token.
    expectError(await api.get("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: "v-123" }), 401, "unauthorized");
    const before = await rowCounts();
    await record({ page_url: "https://shop.example/a", visitor_id: "someone-else" }, ORIGIN, () => site.id);
    expect(await rowCounts()).toEqual({ ...before, page_views: before.page_views! + 1 });
  });

  test("the operator's list is per site", async () => {
    const site = await createSite();
    await record({ page_url: "https://shop.example/mine" }, OTHER_ORIGIN, () => site.id);
    const listed = await listPageViews(site.id);
    expect(listed.map((row) => row.page_url)).toEqual(["https://shop.example/mine"]);
    expect(listed[0]!.origin).toBe(OTHER_ORIGIN);
  });
});

describe("who may record", () => {
  test("an unknown site is 404 site_not_found", async () => {
    expectError(await record({ page_url: "https://shop.example/" }, null, () => "nope"), 404, "site_not_found");
  });

  test("another origin is 403 origin_not_allowed and stores nothing", async () => {
    const before = await rowCounts();
    expectError(await record({ page_url: "https://shop.example/" }, "https://evil.example"), 403, "origin_not_allowed");
    expect(await rowCounts()).toEqual(before);
  });

  test("the operator list needs the operator token and a known site", async () => {
    expectError(await api.get(`/api/v1/admin/page-views?site=${siteId}`), 401, "unauthorized");
    expectError(await api.get("/api/v1/admin/page-views?site=nope", { admin: true }), 404, "site_not_found");
  });
});

describe("bad input changes nothing", () => {
  test.each([
    ["no page_url", { page_title: "x" }],
    ["a relative page_url", { page_url: "/cart" }],
    ["a javascript: page_url", { page_url: "javascript:alert(1)" }],
    ["an ftp page_url", { page_url: "ftp://shop.example/file" }],
    ["a page_url over 2000", { page_url: `https://shop.example/${"p".repeat(2000)}` }],
    ["a page_title over 300", { page_url: "https://shop.example/", page_title: "t".repeat(301) }],
    ["a referrer over 2000", { page_url: "https://shop.example/", referrer: "r".repeat(2001) }],
    ["a visitor_id over 100", { page_url: "https://shop.example/", visitor_id: "v".repeat(101) }],
    ["an empty visitor_id", { page_url: "https://shop.example/", visitor_id: "" }],
    ["a visitor_id with a control character", { page_url: "https://shop.example/", visitor_id: "v\u0001" }],
    ["U+0000 in the title", { page_url: "https://shop.example/", page_title: "a\u0000" }],
    ["an unknown field", { page_url: "https://shop.example/", user_agent: "x" }],
    ["a wrong type", { page_url: 42 }],
    ["null", null],
  ])("%s → 400 invalid_request", async (_name, body) => {
    const before = await rowCounts();
    expectError(await record(body), 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
  });
});

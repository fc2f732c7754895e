import { createHmac } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { as, createStaff } from "../support/inbox";
import { rowCounts } from "../support/row-counts";

// Visitor identity and context (decisions.md, round 3): what the widget sends on start, and the
// `visitor` staff reads carry (inbox and operator).

const FIREFOX_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

const start = async (siteId: string, body: Record<string, unknown>, userAgent = FIREFOX_MAC) => {
  const response = await api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, body, headers: { "User-Agent": userAgent } });
  expect(response.status).toBe(201);
  return response.json.result.conversation_id as string;
};
const pageView = async (siteId: string, body: Record<string, unknown>) =>
  expect((await api.post(`/api/v1/chat/widget/${siteId}/visitors`, { origin: ORIGIN, body })).status).toBe(201);
const operatorRead = async (id: string) => {
  const response = await api.get(`/api/v1/admin/conversations/${id}`, { admin: true });
  expect(response.status).toBe(200);
  return response.json.result;
};

// The first requests load the routes' modules: in the hook, whose budget allows for a busy machine.
beforeAll(async () => {
  await start((await createSite()).id, {});
});

describe("the start's context", () => {
  test("the operator's read carries the visitor: trail newest first, browser, zone, locale, first seen, count", async () => {
    const site = await createSite();
    await pageView(site.id, { page_url: "https://shop.example/", page_title: "Home", referrer: "https://search.example/?q=lamps", visitor_id: "browser-1" });
    await pageView(site.id, { page_url: "https://shop.example/lamps", page_title: "Lamps", visitor_id: "browser-1" });
    await pageView(site.id, { page_url: "https://shop.example/elsewhere", visitor_id: "browser-2" });
    const id = await start(site.id, {
      body: "Is the brass lamp dimmable?",
      visitor_id: "browser-1",
      timezone: "Europe/Berlin",
      locale: "de-DE",
      page_url: "https://shop.example/lamps/brass",
      page_title: "Brass lamp",
    });
    const { visitor, visitor_conversations } = await operatorRead(id);
    expect(visitor).toMatchObject({
      named: false,
      email: null,
      user_id: null,
      identity_verified: false,
      visitor_id: "browser-1",
      current_page: { url: "https://shop.example/lamps/brass", title: "Brass lamp", at: expect.any(String) },
      browser: "Firefox 133",
      os: "macOS",
      device: "desktop",
      timezone: "Europe/Berlin",
      locale: "de-DE",
      conversation_count: 1,
    });
    expect(visitor.display_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(visitor.avatar_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(visitor.pages.map((page: { url: string }) => page.url)).toEqual(["https://shop.example/lamps", "https://shop.example/"]);
    expect(visitor.pages[1]).toMatchObject({ title: "Home", referrer: "https://search.example/?q=lamps" });
    expect(Date.parse(visitor.first_seen_at)).toBeLessThanOrEqual(Date.parse(visitor.pages[1].at));
    expect(visitor_conversations).toEqual([]);
  });

  test("the same browser keeps its generated name and sees its other conversations; a given name wins", async () => {
    const site = await createSite();
    const first = await start(site.id, { visitor_id: "browser-x" }, SAFARI_IPHONE);
    const second = await start(site.id, { visitor_id: "browser-x" });
    const named = await start(site.id, { visitor_id: "browser-x", name: "Ada" });
    const stranger = await start(site.id, { visitor_id: "browser-y" });
    const a = await operatorRead(first);
    const b = await operatorRead(second);
    expect(a.visitor.display_name).toBe(b.visitor.display_name);
    expect(a.visitor.avatar_color).toBe(b.visitor.avatar_color);
    expect(a.visitor).toMatchObject({ browser: "Safari 17", os: "iOS", device: "mobile", conversation_count: 3 });
    expect(a.visitor_conversations.map((c: { id: string }) => c.id).sort()).toEqual([second, named].sort());
    expect((await operatorRead(named)).visitor).toMatchObject({ display_name: "Ada", named: true });
    expect((await operatorRead(stranger)).visitor.conversation_count).toBe(1);
  });

  test("a verified user links conversations across browsers; an unverified user id links nothing", async () => {
    const site = await createSite();
    const secret = (await api.post(`/api/v1/admin/sites/${site.id}/identity-secret`, { admin: true })).json.result.identity_secret as string;
    const hash = (userId: string) => createHmac("sha256", secret).update(userId).digest("hex");
    const one = await start(site.id, { visitor_id: "laptop", user_id: "u-1", user_hash: hash("u-1") });
    const two = await start(site.id, { visitor_id: "phone", user_id: "u-1", user_hash: hash("u-1") });
    const read = await operatorRead(two);
    expect(read.visitor).toMatchObject({ user_id: "u-1", identity_verified: true, conversation_count: 2 });
    expect(read.visitor_conversations.map((c: { id: string }) => c.id)).toEqual([one]);
  });

  test("without the widget's fields the context is still whole: the conversation's own seed, no trail", async () => {
    const site = await createSite();
    const id = await start(site.id, {}, "");
    const { visitor } = await operatorRead(id);
    expect(visitor).toMatchObject({ visitor_id: null, current_page: null, pages: [], browser: null, os: null, device: null, timezone: null, locale: null, conversation_count: 1 });
    expect(visitor.display_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
  });

  test("bad context → 400 invalid_request naming the field, nothing stored", async () => {
    const site = await createSite();
    const before = await rowCounts();
    for (const [field, value] of [
      ["timezone", "Mars/Olympus"],
      ["timezone", "x".repeat(65)],
      ["locale", "not a locale!"],
      ["locale", "x".repeat(36)],
      ["visitor_id", ""],
      ["visitor_id", "v".repeat(101)],
      ["page_url", "javascript:alert(1)"],
      ["page_title", "t".repeat(301)],
    ] as const) {
      const response = await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, body: { [field]: value } });
      expectError(response, 400, "invalid_request");
      expect(response.json.result.fields.map((entry: { path: string }) => entry.path), `${field}=${value.slice(0, 20)}`).toContain(field);
    }
    expect(await rowCounts()).toEqual(before);
  });
});

describe("the inbox", () => {
  test("the read carries the visitor; the list a stable generated name and colour", async () => {
    const site = await createSite();
    const staff = await createStaff("owner");
    const id = await start(site.id, { body: "Hello", visitor_id: "browser-i", timezone: "America/New_York", locale: "en-US" });
    const read = await api.get(`/api/v1/inbox/conversations/${id}`, as(staff));
    expect(read.status).toBe(200);
    expect(read.json.result.visitor).toMatchObject({ visitor_id: "browser-i", timezone: "America/New_York", locale: "en-US", named: false });
    const list = await api.get(`/api/v1/inbox/conversations?site=${site.id}`, as(staff));
    const row = list.json.result.items.find((item: { id: string }) => item.id === id);
    expect(row).toMatchObject({ visitor_display_name: read.json.result.visitor.display_name, visitor_avatar_color: read.json.result.visitor.avatar_color });
  });
});

describe("track_before_interaction", () => {
  test("off by default; the operator turns it on, the widget config says so; a non-boolean is 400 and changes nothing", async () => {
    const site = await createSite();
    const config = async () => (await api.get(`/api/v1/chat/widget/${site.id}/config`, { origin: ORIGIN })).json.result.track_before_interaction;
    expect(await config()).toBe(false);
    expectError(await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { track_before_interaction: "yes" } }), 400, "invalid_request");
    expect(await config()).toBe(false);
    const updated = await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { track_before_interaction: true } });
    expect(updated.json.result.track_before_interaction).toBe(true);
    expect(await config()).toBe(true);
  });
});

describe("the inbox list's preview", () => {
  test("the last public message with who wrote it: not a note, not a system line", async () => {
    const site = await createSite();
    const staff = await createStaff("owner", "Andy Agent");
    const id = await start(site.id, { body: "Where is my parcel?", visitor_id: "browser-p" });
    const preview = async () =>
      (await api.get(`/api/v1/inbox/conversations?site=${site.id}&status=all`, as(staff))).json.result.items.find((item: { id: string }) => item.id === id)
        .last_message;
    const visitorName = (await operatorRead(id)).visitor.display_name;
    expect(await preview()).toEqual({ body: "Where is my parcel?", author_type: "visitor", kind: "message", author_name: visitorName });
    expect((await api.post(`/api/v1/inbox/conversations/${id}/messages`, as(staff, { body: { body: "VIP customer", kind: "note" } }))).status).toBe(201);
    expect((await preview()).body).toBe("Where is my parcel?");
    expect((await api.post(`/api/v1/inbox/conversations/${id}/messages`, as(staff, { body: { body: "It ships today." } }))).status).toBe(201);
    expect(await preview()).toMatchObject({ body: "It ships today.", author_type: "staff", author_name: "Andy Agent" });
    expect((await api.post(`/api/v1/inbox/conversations/${id}/close`, as(staff))).status).toBe(200);
    expect((await preview()).body).toBe("It ships today.");
  });
});

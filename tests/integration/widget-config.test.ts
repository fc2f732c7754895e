import { describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { MAX_INLINE_PICTURE_BYTES } from "../../lib/widget-config/widget-config";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { awayFromWindowEdge, forwardedFor, randomIp } from "../support/rate-limits";
import { createMember, createSite, ORIGIN, PNG_BASE64 } from "../support/fixtures";
import { as, createStaff } from "../support/inbox";

// GET /api/v1/chat/widget/{siteID}/config and the operator settings behind it.
process.env.RATE_LIMITS = "on";
process.env.TRUSTED_PROXY_HOPS = "1";
process.env.RATE_LIMIT_PAGE_VIEWS_PER_MINUTE = "3";

const config = (siteId: string, origin: string | null = ORIGIN, ip = randomIp()) =>
  api.get(`/api/v1/chat/widget/${siteId}/config`, { origin, headers: forwardedFor(ip) });
const patchSite = (siteId: string, body: unknown) => api.patch(`/api/v1/admin/sites/${siteId}`, { admin: true, body });

describe("the widget's site config", () => {
  test("a new site has the widget's defaults; private cache for a minute, varying by Origin, CORS for the page", async () => {
    const site = await createSite();
    const response = await config(site.id);
    expect(response.status).toBe(200);
    expect(response.json.result).toMatchObject({ title: null, greeting: null, brand_color: null, offline: false, locale: null });
    expect(Array.isArray(response.json.result.team)).toBe(true);
    expect(response.headers.get("cache-control")).toBe("private, max-age=60");
    expect(response.headers.get("vary")).toContain("Origin");
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });

  test("the operator sets title, greeting, brand colour, language and offline; the config shows them", async () => {
    const site = await createSite();
    const patched = await patchSite(site.id, { title: "Acme help", greeting: "Hi! Ask us anything.", brand_color: "#FF6600", locale: "de", offline: true });
    expect(patched.status).toBe(200);
    expect(patched.json.result).toMatchObject({ title: "Acme help", brand_color: "#ff6600", locale: "de", identity_required: false, has_identity_secret: false });
    expect((await config(site.id)).json.result).toMatchObject({
      title: "Acme help",
      greeting: "Hi! Ask us anything.",
      brand_color: "#ff6600",
      offline: true,
      locale: "de",
    });
    // null resets a setting to the widget's default
    await patchSite(site.id, { title: null, brand_color: null });
    expect((await config(site.id)).json.result).toMatchObject({ title: null, brand_color: null, greeting: "Hi! Ask us anything." });
  });

  test("answers mode and the help center: off and disabled by default; the operator's settings show, the URL only while enabled", async () => {
    const site = await createSite();
    expect((await config(site.id)).json.result).toMatchObject({ answers: "off", help_center: { enabled: false, url: null } });
    expect((await patchSite(site.id, { answers: "bot", help_center: { enabled: true } })).status).toBe(200);
    const result = (await config(site.id)).json.result;
    expect(result).toMatchObject({ answers: "bot", help_center: { enabled: true } });
    expect(result.help_center.url).toMatch(new RegExp(`^https?://[^/]+/help/${site.id}$`));
    await patchSite(site.id, { answers: "suggest", help_center: { enabled: false } });
    expect((await config(site.id)).json.result).toMatchObject({ answers: "suggest", help_center: { enabled: false, url: null } });
  });

  test.each([
    [{ brand_color: "red" }, "brand_color"],
    [{ brand_color: "#12345" }, "brand_color"],
    [{ brand_color: "#1234567" }, "brand_color"],
    [{ locale: "xx" }, "locale"],
    [{ title: "" }, "title"],
    [{ title: "x".repeat(61) }, "title"],
    [{ greeting: "x".repeat(201) }, "greeting"],
    [{ identity_required: "yes" }, "identity_required"],
  ])("a bad setting %j is 400 invalid_request naming the field, and nothing changes", async (body, field) => {
    const site = await createSite();
    await patchSite(site.id, { title: "Kept" });
    const response = await patchSite(site.id, body);
    expectError(response, 400, "invalid_request");
    expect(JSON.stringify(response.json.result.fields)).toContain(field);
    expect((await config(site.id)).json.result.title).toBe("Kept");
  });

  test("the team: only members shown in the widget, each with a small picture as a data URL or null", async () => {
    const site = await createSite();
    const shown = await createMember({ name: "Shown With Picture" });
    const plain = await createMember({ name: "Shown Without Picture", picture: false });
    const hidden = await createMember({ name: "Never Shown" });
    for (const member of [shown, plain]) {
      const response = await api.patch(`/api/v1/admin/members/${member.id}`, { admin: true, body: { shown_in_widget: true } });
      expect(response.status).toBe(200);
      expect(response.json.result.shown_in_widget).toBe(true);
    }
    const team = (await config(site.id)).json.result.team as { name: string; avatar: string | null }[];
    expect(team).toContainEqual({ name: "Shown With Picture", avatar: `data:image/png;base64,${PNG_BASE64}` });
    expect(team).toContainEqual({ name: "Shown Without Picture", avatar: null });
    expect(team.map((m) => m.name)).not.toContain(hidden.name);
    expect(Buffer.from(PNG_BASE64, "base64").length).toBeLessThanOrEqual(MAX_INLINE_PICTURE_BYTES);
  });

  test("a member created with shown_in_widget is on the team; a non-boolean is 400", async () => {
    const site = await createSite();
    const created = await api.post("/api/v1/admin/members", { admin: true, body: { id: `m-${Date.now()}`, name: "Created Shown", shown_in_widget: true } });
    expect(created.status).toBe(201);
    expect((await config(site.id)).json.result.team.map((m: { name: string }) => m.name)).toContain("Created Shown");
    const bad = await api.post("/api/v1/admin/members", { admin: true, body: { id: `m2-${Date.now()}`, name: "Bad", shown_in_widget: 1 } });
    expectError(bad, 400, "invalid_request");
  });

  test("unknown site is 404 site_not_found; an origin not on the allowlist is 403 without CORS", async () => {
    expectError(await config("no-such-site"), 404, "site_not_found");
    const site = await createSite({ origins: [ORIGIN] });
    const foreign = await config(site.id, "https://evil.example");
    expectError(foreign, 403, "origin_not_allowed");
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    expectError(await config(site.id, null), 403, "origin_not_allowed");
  });

  test("rate-limited as page views: past the limit 429 with Retry-After", async () => {
    await awayFromWindowEdge();
    const site = await createSite();
    const ip = randomIp();
    for (let i = 0; i < 3; i++) expect((await config(site.id, ORIGIN, ip)).status).toBe(200);
    const limited = await config(site.id, ORIGIN, ip);
    expectError(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  test("preflight from an allowed origin is 204", async () => {
    const site = await createSite();
    const response = await api.options(`/api/v1/chat/widget/${site.id}/config`, { origin: ORIGIN, headers: { "Access-Control-Request-Method": "GET" } });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-methods")).toContain("GET");
  });
});

describe("team_available", () => {
  const available = async (siteId: string) => (await config(siteId)).json.result.team_available;

  test("true only while a person who may answer is online: not when everyone is away or gone, never for a bot", async () => {
    const prisma = await db();
    await prisma.member.updateMany({ data: { inboxTabAt: null, inboxInputAt: null, away: false } });
    const site = await createSite();
    const agent = await createStaff("agent", "Ava Agent");
    expect(await available(site.id)).toBe(false); // nobody has the inbox open

    const now = new Date();
    await prisma.member.update({ where: { id: agent.id }, data: { inboxTabAt: now, inboxInputAt: now } });
    expect(await available(site.id)).toBe(true);

    expect((await api.put("/api/v1/inbox/session/availability", as(agent, { body: { availability: "away" } }))).status).toBe(200);
    expect(await available(site.id)).toBe(false); // set to Away

    // A bot with a fresh heartbeat is not someone there (bots are not people who may sign in).
    const bot = await createMember({ name: "Helper bot" });
    await prisma.member.update({ where: { id: bot.id }, data: { bot: true, inboxTabAt: now, inboxInputAt: now } });
    expect(await available(site.id)).toBe(false);
  });
});

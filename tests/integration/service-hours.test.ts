import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";

// Service hours (decisions.md, round 3; docs/service-hours.md): the settings on both audiences'
// site routes, the widget config's open / next_open_at, and starts outside hours.

const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
const closedWeek = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const config = (siteId: string) => api.get(`/api/v1/chat/widget/${siteId}/config`, { origin: ORIGIN });
const patchAsOperator = (siteId: string, body: unknown) => api.patch(`/api/v1/admin/sites/${siteId}`, { admin: true, body });
const readSite = async (siteId: string) => (await api.get("/api/v1/admin/sites", { admin: true })).json.result.find((site: { id: string }) => site.id === siteId);
const hhmm = (at: Date) => at.toISOString().slice(11, 16);

let owner: Staff;
let agent: Staff;
beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
});

describe("service hours settings", () => {
  test("a new site has none: always open, UTC, no holidays, no away message", async () => {
    const site = await createSite();
    expect(await readSite(site.id)).toMatchObject({ timezone: "UTC", hours: null, holidays: [], away_message: null });
    expect((await config(site.id)).json.result).toMatchObject({ open: true, next_open_at: null, offline: false, away_message: null });
  });

  test("the operator sets them; days left out are closed, holidays sorted once, the zone canonical", async () => {
    const site = await createSite();
    const response = await patchAsOperator(site.id, {
      timezone: "europe/berlin",
      hours: { mon: [["09:00", "12:00"], ["13:00", "17:30"]], fri: [["22:00", "02:00"]], sat: [["00:00", "24:00"]] },
      holidays: ["2026-12-26", "2026-12-25", "2026-12-26"],
      away_message: "  We answer on weekdays.  ",
    });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json.result).toMatchObject({
      timezone: "Europe/Berlin",
      hours: { mon: [["09:00", "12:00"], ["13:00", "17:30"]], tue: [], wed: [], thu: [], fri: [["22:00", "02:00"]], sat: [["00:00", "24:00"]], sun: [] },
      holidays: ["2026-12-25", "2026-12-26"],
      away_message: "We answer on weekdays.",
    });
    // null clears the hours: always open again
    expect((await patchAsOperator(site.id, { hours: null })).json.result.hours).toBeNull();
    expect((await config(site.id)).json.result.open).toBe(true);
  });

  test.each([
    [{ timezone: "Mars/Olympus_Mons" }, "timezone"],
    [{ timezone: "" }, "timezone"],
    [{ hours: { mon: [["9:00", "17:00"]] } }, "hours"],
    [{ hours: { mon: [["09:00", "09:00"]] } }, "hours"],
    [{ hours: { mon: [["24:00", "02:00"]] } }, "hours"],
    [{ hours: { mon: [["09:00", "17:00", "18:00"]] } }, "hours"],
    [{ hours: { monday: [] } }, "hours"],
    [{ hours: { mon: "09:00-17:00" } }, "hours"],
    [{ hours: { mon: Array.from({ length: 9 }, () => ["09:00", "10:00"]) } }, "hours"],
    [{ holidays: ["2026-02-30"] }, "holidays"],
    [{ holidays: ["25.12.2026"] }, "holidays"],
    [{ away_message: "x".repeat(501) }, "away_message"],
    [{ away_message: "   " }, "away_message"],
  ])("a bad setting %j is 400 invalid_request naming the field, and nothing changes", async (body, field) => {
    const site = await createSite();
    await patchAsOperator(site.id, { timezone: "Asia/Tokyo", hours: { mon: [["09:00", "17:00"]] }, away_message: "Kept" });
    const before = await readSite(site.id);
    const response = await patchAsOperator(site.id, { ...body, name: "Renamed" });
    expectError(response, 400, "invalid_request");
    expect(JSON.stringify(response.json.result.fields)).toContain(field);
    expect(await readSite(site.id)).toEqual(before);
  });

  test("the inbox route: 401 without a session, 403 for an agent, 400 on bad input, 200 for an owner", async () => {
    const site = await createSite();
    const path = `/api/v1/inbox/sites/${site.id}`;
    const body = { timezone: "America/New_York", hours: closedWeek, away_message: "Back soon." };
    expectError(await api.patch(path, as(null, { body })), 401, "unauthorized");
    expectError(await api.patch(path, as(agent, { body })), 403, "forbidden");
    expectError(await api.patch(path, as(owner, { body: { hours: { mon: [["08:00"]] } } })), 400, "invalid_request");
    expect((await readSite(site.id)).hours).toBeNull();
    const saved = await api.patch(path, as(owner, { body }));
    expect(saved.status).toBe(200);
    expect(saved.json.result).toMatchObject({ timezone: "America/New_York", away_message: "Back soon." });
  });
});

describe("the widget config and starts outside hours", () => {
  test("closed all week: not open, no next opening, offline; a start needs an email", async () => {
    const site = await createSite();
    await patchAsOperator(site.id, { hours: closedWeek, away_message: "Closed for the season." });
    const response = await config(site.id);
    expect(response.json.result).toMatchObject({ open: false, next_open_at: null, offline: true, away_message: "Closed for the season." });
    const start = (body: Record<string, unknown>) => api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, body });
    expectError(await start({ body: "Anyone there?" }), 400, "email_required");
    const withEmail = await start({ body: "Anyone there?", email: "vera@example.com" });
    expect(withEmail.status).toBe(201);
    expect(withEmail.json.result.offline).toBe(true);
  });

  test("open only tomorrow: next_open_at is tomorrow's start in the site's zone", async () => {
    const site = await createSite();
    const tomorrow = new Date(Date.now() + 86_400_000);
    await patchAsOperator(site.id, { timezone: "UTC", hours: { [DAYS[tomorrow.getUTCDay()]!]: [["10:00", "11:00"]] } });
    const result = (await config(site.id)).json.result;
    expect(result).toMatchObject({ open: false, offline: true });
    expect(result.next_open_at).toBe(`${tomorrow.toISOString().slice(0, 10)}T10:00:00.000Z`);
  });

  test("open now until the coming minute: open, and the browser keeps the config no longer than that", async () => {
    const site = await createSite();
    const now = new Date();
    const end = new Date(Math.floor(now.getTime() / 60_000) * 60_000 + 60_000);
    const endText = end.getUTCDate() === now.getUTCDate() ? hhmm(end) : "24:00";
    await patchAsOperator(site.id, { timezone: "UTC", hours: { [DAYS[now.getUTCDay()]!]: [[hhmm(now), endText]] } });
    const response = await config(site.id);
    if (Date.now() >= end.getTime()) return; // the minute ended while the test ran: nothing to see
    expect(response.json.result).toMatchObject({ open: true, next_open_at: null, offline: false });
    const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get("cache-control") ?? "")?.[1]);
    expect(maxAge).toBeLessThanOrEqual(Math.ceil((end.getTime() - now.getTime()) / 1000));
  });

  test("open around the clock: open, a minute's cache, and a start needs no email", async () => {
    const site = await createSite();
    const allDay = Object.fromEntries(DAYS.map((day) => [day, [["00:00", "24:00"]]]));
    await patchAsOperator(site.id, { timezone: "Pacific/Auckland", hours: allDay });
    const response = await config(site.id);
    expect(response.json.result).toMatchObject({ open: true, next_open_at: null, offline: false });
    expect(response.headers.get("cache-control")).toBe("private, max-age=60");
    const started = await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, body: { body: "Hi" } });
    expect(started.status).toBe(201);
    expect(started.json.result.offline).toBe(false);
  });
});

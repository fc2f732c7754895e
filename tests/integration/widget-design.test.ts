import { beforeAll, describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createMember, createSite, ORIGIN, OTHER_ORIGIN } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { lastSeenByOrigin } from "../../lib/page-views/origins-seen";

// The widget designed in the inbox (issue #26; docs/widget.md, "Design"): the launcher's side and
// words and the header's faces are site settings, carried by the widget config.

const config = (siteId: string) => api.get(`/api/v1/chat/widget/${siteId}/config`, { origin: ORIGIN });
const patchAsOperator = (siteId: string, body: unknown) => api.patch(`/api/v1/admin/sites/${siteId}`, { admin: true, body });
const readSite = async (siteId: string) => (await api.get("/api/v1/admin/sites", { admin: true })).json.result.find((site: { id: string }) => site.id === siteId);

let owner: Staff;
let agent: Staff;
beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
});

describe("widget design settings", () => {
  test("a new site: launcher on the right, no label, no chosen faces; the config says so", async () => {
    const site = await createSite();
    expect(await readSite(site.id)).toMatchObject({ position: "right", launcher_label: null, team_member_ids: [] });
    expect((await config(site.id)).json.result).toMatchObject({ position: "right", launcher_label: null });
  });

  test("an owner sets position, label and faces; the config carries them, faces in the chosen order", async () => {
    const site = await createSite();
    const first = await createMember({ name: "Ada First" });
    const second = await createMember({ name: "Bo Second", picture: false });
    const response = await api.patch(`/api/v1/inbox/sites/${site.id}`, as(owner, { body: { position: "left", launcher_label: "  Chat with us  ", team_member_ids: [second.id, first.id] } }));
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json.result).toMatchObject({ position: "left", launcher_label: "Chat with us", team_member_ids: [second.id, first.id] });
    const widget = (await config(site.id)).json.result;
    expect(widget).toMatchObject({ position: "left", launcher_label: "Chat with us" });
    expect(widget.team.map((face: { name: string }) => face.name)).toEqual(["Bo Second", "Ada First"]);
    expect(widget.team[0].avatar).toBeNull();
    expect(widget.team[1].avatar).toMatch(/^data:image\/png;base64,/);

    // null takes the label away, [] goes back to the members shown in the widget
    const reset = await patchAsOperator(site.id, { launcher_label: null, team_member_ids: [] });
    expect(reset.json.result).toMatchObject({ position: "left", launcher_label: null, team_member_ids: [] });
    expect((await config(site.id)).json.result.team.map((face: { name: string }) => face.name)).not.toContain("Bo Second");
  });

  test("a deactivated member leaves the faces without a save", async () => {
    const site = await createSite();
    const staff = await createStaff("agent", "Dee Parted");
    const kept = await createMember({ name: "Kay Kept" });
    expect((await patchAsOperator(site.id, { team_member_ids: [staff.id, kept.id] })).status).toBe(200);
    expect((await api.post(`/api/v1/inbox/members/${staff.id}/deactivate`, as(owner))).status).toBe(200);
    expect((await config(site.id)).json.result.team.map((face: { name: string }) => face.name)).toEqual(["Kay Kept"]);
  });

  test.each([
    [{ position: "center" }, "position"],
    [{ position: null }, "position"],
    [{ launcher_label: "x".repeat(41) }, "launcher_label"],
    [{ launcher_label: "   " }, "launcher_label"],
    [{ launcher_label: "two\nlines" }, "launcher_label"],
    [{ team_member_ids: ["a", "b", "c", "d", "e", "f"] }, "team_member_ids"],
    [{ team_member_ids: "a" }, "team_member_ids"],
    [{ team_member_ids: ["no-such-member"] }, "team_member_ids.0"],
  ])("a bad setting %j is 400 invalid_request naming the field, and nothing changes", async (body, field) => {
    const site = await createSite();
    const member = await createMember();
    await patchAsOperator(site.id, { position: "left", launcher_label: "Kept", team_member_ids: [member.id] });
    const before = await readSite(site.id);
    const response = await patchAsOperator(site.id, { ...body, name: "Renamed" });
    expectError(response, 400, "invalid_request");
    expect(JSON.stringify(response.json.result.fields)).toContain(field);
    expect(await readSite(site.id)).toEqual(before);
  });

  test("a repeated face, or a member's face in a new site that does not exist, is refused too", async () => {
    const member = await createMember();
    const site = await createSite();
    expectError(await patchAsOperator(site.id, { team_member_ids: [member.id, member.id] }), 400, "invalid_request");
    const refused = await api.post("/api/v1/admin/sites", { admin: true, body: { id: `design-${member.id}`, origins: [ORIGIN], team_member_ids: ["ghost"] } });
    expectError(refused, 400, "invalid_request");
    expect((await api.get("/api/v1/admin/sites", { admin: true })).json.result.map((s: { id: string }) => s.id)).not.toContain(`design-${member.id}`);
  });

  test("only owners change them in the inbox", async () => {
    const site = await createSite();
    expectError(await api.patch(`/api/v1/inbox/sites/${site.id}`, as(agent, { body: { position: "left" } })), 403, "forbidden");
    expect((await readSite(site.id)).position).toBe("right");
  });
});

describe("where the widget was seen", () => {
  test("the last page view per allowed origin; an origin without one is null", async () => {
    const site = await createSite();
    const before = Date.now();
    for (const page of ["https://shop.example/a", "https://shop.example/b"]) {
      expect((await api.post(`/api/v1/chat/widget/${site.id}/visitors`, { origin: ORIGIN, body: { page_url: page } })).status).toBe(201);
    }
    const seen = await lastSeenByOrigin(site);
    expect(seen.map((entry) => entry.origin)).toEqual([ORIGIN, OTHER_ORIGIN]);
    expect(Date.parse(seen[0]!.last_seen_at!)).toBeGreaterThanOrEqual(before - 1000);
    expect(seen[1]!.last_seen_at).toBeNull();
  });
});

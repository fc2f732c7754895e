import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { GET as csvRoute } from "../../app/api/v1/inbox/reports.csv/route";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createMember, createSite, staffReply, startConversation, visitor, type Started } from "../support/fixtures";
import { as, createStaff, INBOX_ORIGIN, type Staff } from "../support/inbox";

// GET /api/v1/inbox/reports and reports.csv (decisions.md, round 3, "Satisfaction and reports";
// docs/reports.md), and the metrics of the staff reads, over a seeded set whose times are set.

let owner: Staff;
let agent: Staff;
let botId: string;
let plain: string; // a site without hours
let office: string; // Monday to Friday 09:00-17:00 UTC
const conversations: Record<string, Started> = {};

const admin = (path: string, body?: unknown) => api.post(`/api/v1/admin/${path}`, { admin: true, body });
const close = (started: Started) => admin(`conversations/${started.conversationId}/close`);
const reopen = (started: Started) => admin(`conversations/${started.conversationId}/reopen`);

/** Gives the conversation's timeline messages (in sequence order) these times, and the conversation its first and last. */
async function retime(started: Started, times: string[]) {
  const prisma = await db();
  const messages = await prisma.message.findMany({
    where: { conversationId: started.conversationId, kind: "message", OR: [{ authorType: { not: "system" } }, { event: { not: null } }] },
    orderBy: { sequence: "asc" },
  });
  expect(messages).toHaveLength(times.length);
  for (const [index, message] of messages.entries()) await prisma.message.update({ where: { id: message.id }, data: { createdAt: new Date(times[index]!) } });
  await prisma.$executeRaw`UPDATE conversations SET created_at = ${new Date(times[0]!)}, last_activity_at = ${new Date(times.at(-1)!)} WHERE id = ${started.conversationId}`;
  const closedAt = messages.findLast((message) => message.event === "conversation_closed");
  if (closedAt) await prisma.conversation.updateMany({ where: { id: started.conversationId, status: "closed" }, data: { closedAt: new Date(times[messages.indexOf(closedAt)]!) } });
}

async function rate(started: Started, score: number, at: string) {
  expect((await api.post("/api/v1/chat/visitor/rating", { ...visitor(started), body: { score } })).status).toBe(201);
  await (await db()).conversationRating.updateMany({ where: { conversationId: started.conversationId, score }, data: { createdAt: new Date(at) } });
}

const assign = (started: Started, member: Staff) =>
  api.post(`/api/v1/inbox/conversations/${started.conversationId}/assign`, as(owner, { body: { member_id: member.id } }));

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  botId = (await createMember({ name: "Robo", picture: false })).id;
  await api.patch(`/api/v1/admin/members/${botId}`, { admin: true, body: { bot: true } });
  plain = (await createSite()).id;
  office = (await createSite()).id;
  const weekdays = Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [["09:00", "17:00"]]]));
  expect((await api.patch(`/api/v1/admin/sites/${office}`, { admin: true, body: { timezone: "UTC", hours: weekdays } })).status).toBe(200);

  // one: a bot reply, a person 10 min after the visitor, closed after an hour, rated 5.
  const one = (conversations.one = await startConversation(plain, { body: "Hello" }));
  await staffReply(one.conversationId, botId, "I am a bot");
  await staffReply(one.conversationId, agent.id, "Hi, Andy here");
  await close(one);
  await rate(one, 5, "2026-06-01T11:01:00Z");
  await retime(one, ["2026-06-01T10:00:00Z", "2026-06-01T10:00:05Z", "2026-06-01T10:10:00Z", "2026-06-01T11:00:00Z"]);
  // two: answered in 2 min, closed after 30, rated 3; reopened the next day, a staff line before the
  // visitor writes, answered 4 min after the visitor, closed 20 min after the reopen.
  const two = (conversations.two = await startConversation(plain, { body: "Question" }));
  await staffReply(two.conversationId, agent.id, "Answer");
  await close(two);
  await rate(two, 3, "2026-06-02T09:31:00Z");
  await reopen(two);
  await staffReply(two.conversationId, agent.id, "Following up");
  expect((await api.post("/api/v1/chat/visitor/messages", { ...visitor(two), body: { body: "One more thing", client_id: "v2" } })).status).toBe(201);
  await staffReply(two.conversationId, agent.id, "Sure");
  await close(two);
  await retime(two, [
    "2026-06-02T09:00:00Z",
    "2026-06-02T09:02:00Z",
    "2026-06-02T09:30:00Z",
    "2026-06-03T09:00:00Z",
    "2026-06-03T09:00:30Z",
    "2026-06-03T09:01:00Z",
    "2026-06-03T09:05:00Z",
    "2026-06-03T09:20:00Z",
  ]);
  // three: the second week, no reply.
  const three = (conversations.three = await startConversation(plain, { body: "Anyone?" }));
  await retime(three, ["2026-06-08T12:00:00Z"]);
  // four: on the office site, Friday 16:50 to Monday 09:10: 20 min inside hours.
  const four = (conversations.four = await startConversation(office, { body: "Friday question", email: "friday@example.com" })); // outside hours the site asks for an email
  await staffReply(four.conversationId, owner.id, "Monday answer");
  await retime(four, ["2026-06-05T16:50:00Z", "2026-06-08T09:10:00Z"]);
  for (const started of [one, two]) expect((await assign(started, agent)).status).toBe(200);
});

const report = (query: string, staff: Staff = owner) => api.get(`/api/v1/inbox/reports?${query}`, as(staff));
const reportCsv = async (query: string) =>
  (await csvRoute(new Request(`${INBOX_ORIGIN}/api/v1/inbox/reports.csv?${query}`, { headers: { Cookie: owner.cookie } }), { params: Promise.resolve({}) })).text();

describe("GET /api/v1/inbox/reports", () => {
  test("members other than owners get 403, and without a session 401", async () => {
    expectError(await report("from=2026-06-01&to=2026-06-14", agent), 403, "forbidden");
    expectError(await api.get("/api/v1/inbox/reports", as(null)), 401, "unauthorized");
    const csv = await csvRoute(new Request(`${INBOX_ORIGIN}/api/v1/inbox/reports.csv`, { headers: { Cookie: agent.cookie } }), { params: Promise.resolve({}) });
    expect(csv.status).toBe(403);
  });

  test.each([
    ["from=2026-06-14&to=2026-06-01", "to"],
    ["from=2025-01-01&to=2026-06-01", "to"],
    ["from=yesterday", "from"],
    ["to=2026-02-30", "to"],
    ["from=2026-13-45", "from"],
    ["group=month", "group"],
    ["from=2026-06-01&extra=1", "extra"],
  ])("a bad query %s is 400 naming %s", async (query, field) => {
    const response = await report(query);
    expectError(response, 400, "invalid_request");
    expect(JSON.stringify(response.json.result)).toContain(field);
  });

  test("an unknown site is 404 site_not_found", async () => {
    expectError(await report("site=nowhere"), 404, "site_not_found");
  });

  test("the seeded set's figures: bots ignored, a reopen a cycle of its own, ratings by score", async () => {
    const response = await report(`site=${plain}&from=2026-06-01&to=2026-06-14`);
    expect(response.status).toBe(200);
    expect(response.json.result).toMatchObject({
      from: "2026-06-01T00:00:00.000Z",
      to: "2026-06-15T00:00:00.000Z",
      conversations: { started: 3, closed: 3 },
      first_response: { median_s: 240, p90_s: 600, count: 3 },
      resolution: { median_s: 1800, p90_s: 3600, count: 3 },
      rating: { average: 4, count: 2, by_score: { 1: 0, 2: 0, 3: 1, 4: 0, 5: 1 } },
    });
    const series = response.json.result.series;
    expect(series).toHaveLength(14);
    expect(series[0]).toMatchObject({ key: "2026-06-01", conversations: { started: 1, closed: 1 }, first_response: { median_s: 600, count: 1 } });
    expect(series[2]).toMatchObject({ key: "2026-06-03", conversations: { started: 0, closed: 1 }, first_response: { median_s: 240 }, resolution: { median_s: 1200 } });
  });

  test("by week and by member", async () => {
    const weeks = (await report(`site=${plain}&from=2026-06-01&to=2026-06-14&group=week`)).json.result.series;
    expect(weeks.map((item: { key: string; conversations: unknown }) => [item.key, item.conversations])).toEqual([
      ["2026-06-01", { started: 2, closed: 3 }],
      ["2026-06-08", { started: 1, closed: 0 }],
    ]);
    const members = (await report(`site=${plain}&from=2026-06-01&to=2026-06-14&group=member`)).json.result.series;
    expect(members).toMatchObject([
      { key: agent.id, label: "Andy Agent", conversations: { started: 2, closed: 3 }, rating: { count: 2, average: 4 } },
      { key: null, label: "Unassigned", conversations: { started: 1, closed: 0 }, first_response: { count: 0 } },
    ]);
  });

  test("?member= keeps the conversations assigned to that member", async () => {
    const result = (await report(`site=${plain}&from=2026-06-01&to=2026-06-14&member=${agent.id}`)).json.result;
    expect(result).toMatchObject({ member: agent.id, conversations: { started: 2, closed: 3 }, first_response: { count: 3 }, rating: { count: 2 } });
  });

  test("a site's hours: the weekend is skipped", async () => {
    const result = (await report(`site=${office}&from=2026-06-01&to=2026-06-14`)).json.result;
    expect(result.first_response).toEqual({ median_s: 1200, p90_s: 1200, count: 1 });
  });

  test("a range without conversations answers zeros and nulls", async () => {
    const result = (await report(`site=${plain}&from=2026-01-01&to=2026-01-07&group=week`)).json.result;
    expect(result).toMatchObject({ conversations: { started: 0, closed: 0 }, first_response: { median_s: null, p90_s: null, count: 0 }, rating: { average: null } });
    expect(result.series.map((item: { key: string }) => item.key)).toEqual(["2025-12-29", "2026-01-05"]);
  });
});

describe("GET /api/v1/inbox/reports.csv", () => {
  test("one row per cycle started in the range", async () => {
    const response = await csvRoute(
      new Request(`${INBOX_ORIGIN}/api/v1/inbox/reports.csv?site=${plain}&from=2026-06-01&to=2026-06-14`, { headers: { Cookie: owner.cookie } }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const [header, ...rows] = (await response.text()).trimEnd().split("\r\n");
    expect(header).toBe(
      "conversation_id,site_id,assigned_member_id,cycle,started_at,first_response_s,first_response_skipped_s,bot_replies_ignored,resolution_s,resolution_skipped_s,closed_at," +
        "visitor_name,first_responder_id,first_responder_name,closed_by_id,closed_by_name,rating,labels," +
        "sla_policy_id,sla_first_response_met,sla_next_response_met,sla_resolution_met",
    );
    const { one, two, three } = conversations;
    // The closes came through the operator API (no member); the visitors gave no name.
    const shown = (row: string) => row.split(",")[11];
    expect(rows.map((row) => row.split(",").slice(0, 11).join(",") + "," + row.split(",").slice(12).join(","))).toEqual([
      `${one!.conversationId},${plain},${agent.id},1,2026-06-01T10:00:00.000Z,600,0,1,3600,0,2026-06-01T11:00:00.000Z,${agent.id},Andy Agent,,,5,,,,,`,
      `${two!.conversationId},${plain},${agent.id},1,2026-06-02T09:00:00.000Z,120,0,0,1800,0,2026-06-02T09:30:00.000Z,${agent.id},Andy Agent,,,3,,,,,`,
      `${two!.conversationId},${plain},${agent.id},2,2026-06-03T09:00:00.000Z,240,0,0,1200,0,2026-06-03T09:20:00.000Z,${agent.id},Andy Agent,,,,,,,,`,
      `${three!.conversationId},${plain},,1,2026-06-08T12:00:00.000Z,,,0,,,,,,,,,,,,,`,
    ]);
    for (const row of rows) expect(shown(row)).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/); // the generated name the inbox shows
  });
});

describe("metrics on the staff reads", () => {
  test("the inbox's and the operator API's conversation carry the same cycles; the list row its rating", async () => {
    const { two } = conversations;
    const cycles = [
      { started_at: "2026-06-02T09:00:00.000Z", first_response_s: 120, resolution_s: 1800 },
      { started_at: "2026-06-03T09:00:00.000Z", first_response_s: 240, resolution_s: 1200 },
    ];
    expect((await api.get(`/api/v1/inbox/conversations/${two!.conversationId}`, as(agent))).json.result.metrics).toEqual({ cycles });
    expect((await api.get(`/api/v1/admin/conversations/${two!.conversationId}`, { admin: true })).json.result.metrics).toEqual({ cycles });
    const list = (await api.get(`/api/v1/inbox/conversations?site=${plain}&status=all`, as(agent))).json.result.items;
    const rows = Object.fromEntries(list.map((item: { id: string; rating: unknown }) => [item.id, item.rating]));
    expect(rows[two!.conversationId]).toEqual({ score: 3 });
    expect(rows[conversations.three!.conversationId]).toBeNull();
  });

  test("a note is not a response", async () => {
    const started = await startConversation(plain, { body: "Hi" });
    await staffReply(started.conversationId, agent.id, "internal", "note");
    const read = await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true });
    expect(read.json.result.metrics.cycles).toEqual([{ started_at: expect.any(String), first_response_s: null, resolution_s: null }]);
  });
});

describe("precomputed cycles (conversation_cycles) equal the measurement on read", () => {
  const sites = () => [plain, office];
  /** After a report (which measures what changed), every conversation's stored cycles are its on-read metrics. */
  async function expectStoredEqualsOnRead() {
    expect((await report(`from=2026-01-01&to=2026-12-30`)).status).toBe(200);
    const prisma = await db();
    const ids = (await prisma.conversation.findMany({ where: { siteId: { in: sites() } }, select: { id: true } })).map((row) => row.id);
    expect(ids.length).toBeGreaterThanOrEqual(5);
    for (const id of ids) {
      const stored = await prisma.conversationCycle.findMany({ where: { conversationId: id, cycle: { not: null } }, orderBy: { position: "asc" } });
      const onRead = (await api.get(`/api/v1/admin/conversations/${id}`, { admin: true })).json.result.metrics.cycles;
      expect(stored.map((row) => ({ started_at: row.startedAt!.toISOString(), first_response_s: row.firstResponseS, resolution_s: row.resolutionS }))).toEqual(onRead);
    }
    return ids;
  }

  test("for the seeded timelines (bot reply, reopen, hours), and again after new hours, a member made a bot and a reply", async () => {
    await expectStoredEqualsOnRead();
    // New hours on the plain site: Monday 10:05 onwards only, so "one" (10:00 -> 10:10) counts 5 min.
    const late = Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [["10:05", "17:00"]]]));
    expect((await api.patch(`/api/v1/admin/sites/${plain}`, { admin: true, body: { timezone: "UTC", hours: late } })).status).toBe(200);
    await expectStoredEqualsOnRead();
    const csv = await reportCsv(`site=${plain}&from=2026-06-01&to=2026-06-01`);
    expect(csv).toContain(`${conversations.one!.conversationId},${plain},${agent.id},1,2026-06-01T10:00:00.000Z,300,`);
    // The agent made a bot: their replies stop counting as first responses.
    await api.patch(`/api/v1/admin/members/${agent.id}`, { admin: true, body: { bot: true } });
    await expectStoredEqualsOnRead();
    const byAgent = (await report(`site=${plain}&from=2026-06-01&to=2026-06-14`)).json.result.first_response;
    expect(byAgent.count).toBe(0);
    await api.patch(`/api/v1/admin/members/${agent.id}`, { admin: true, body: { bot: false } });
    // A reply to "three" (unanswered until now) is measured before the next report.
    await staffReply(conversations.three!.conversationId, owner.id, "Sorry for the wait");
    await expectStoredEqualsOnRead();
    const stored = await (await db()).conversationCycle.findFirst({ where: { conversationId: conversations.three!.conversationId } });
    expect(stored!.firstResponseS).not.toBeNull();
  });
});

describe("credit goes to who did the work, whatever the assignment now (round 4)", () => {
  test("after a bulk reassign, the first responder keeps the first response, the closer the close and the rating; the CSV names them", async () => {
    const site = (await createSite()).id;
    const started = await startConversation(site, { body: "My order is late", name: "Cora Client" });
    await staffReply(started.conversationId, agent.id, "Looking into it");
    expect((await api.post(`/api/v1/inbox/conversations/${started.conversationId}/close`, as(agent))).status).toBe(200);
    expect((await api.post("/api/v1/chat/visitor/rating", { ...visitor(started), body: { score: 4 } })).status).toBe(201);
    const label = await api.post("/api/v1/inbox/labels", as(owner, { body: { name: `Shipping ${Date.now().toString(36)}`, color: "#336699" } }));
    const bulk = (body: object) => api.post("/api/v1/inbox/conversations/bulk", as(owner, { body: { ids: [started.conversationId], ...body } }));
    expect((await bulk({ action: "label", label_id: label.json.result.id })).status).toBe(200);
    expect((await report(`site=${site}&group=member`)).status).toBe(200); // measured before the reassign
    expect((await bulk({ action: "assign", member_id: owner.id })).status).toBe(200);

    const series = (await report(`site=${site}&group=member`)).json.result.series as { key: string | null; conversations: object; first_response: { count: number }; rating: { count: number } }[];
    const of = (id: string) => series.find((item) => item.key === id);
    expect(of(agent.id)).toMatchObject({ conversations: { started: 0, closed: 1 }, first_response: { count: 1 }, rating: { count: 1 } });
    expect(of(owner.id)).toMatchObject({ conversations: { started: 1, closed: 0 }, first_response: { count: 0 }, rating: { count: 0 } });
    expect((await report(`site=${site}&member=${agent.id}`)).json.result).toMatchObject({ conversations: { closed: 1 }, first_response: { count: 1 }, rating: { count: 1 } });
    expect((await report(`site=${site}&member=${owner.id}`)).json.result).toMatchObject({ conversations: { closed: 0 }, first_response: { count: 0 }, rating: { count: 0 } });

    const [header, row, ...rest] = (await reportCsv(`site=${site}`)).trimEnd().split("\r\n");
    expect(rest).toEqual([]);
    const columns = header!.split(",");
    expect(columns.slice(11, 18)).toEqual(["visitor_name", "first_responder_id", "first_responder_name", "closed_by_id", "closed_by_name", "rating", "labels"]);
    const cells = Object.fromEntries(row!.split(",").map((value, index) => [columns[index], value]));
    expect(cells).toMatchObject({
      assigned_member_id: owner.id,
      visitor_name: "Cora Client",
      first_responder_id: agent.id,
      first_responder_name: "Andy Agent",
      closed_by_id: agent.id,
      closed_by_name: "Andy Agent",
      rating: "4",
      labels: label.json.result.name,
    });
  });

  test("the CSV's file name is the range as chosen, its last day included", async () => {
    const response = await csvRoute(
      new Request(`${INBOX_ORIGIN}/api/v1/inbox/reports.csv?site=${plain}&from=2026-06-01&to=2026-06-14`, { headers: { Cookie: owner.cookie } }),
      { params: Promise.resolve({}) },
    );
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="parley-report-2026-06-01-2026-06-14.csv"');
  });
});

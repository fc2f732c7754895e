import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { subscribeInbox, type InboxEvent } from "../../lib/realtime/inbox-signals";
import { api, type CallOptions } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, openConversation, ORIGIN, startConversation, visitor, type Started } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { rowCounts } from "../support/row-counts";
import { fileTicket, file, PNG_BYTES, putUpload, ticket } from "../support/tickets";

let owner: Staff;
let agent: Staff;
let started: Started & { site: { id: string } };

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  started = await openConversation({ body: "Hello, anyone there?", client_id: "v1", name: "Vera Visitor" });
});

const conversation = () => `/api/v1/inbox/conversations/${started.conversationId}`;

// Every inbox route: method, path, a valid body, the role it needs.
const routes: { method: "get" | "post" | "patch" | "delete"; path: () => string; body?: unknown; owner?: true }[] = [
  { method: "get", path: () => "/api/v1/inbox/session" },
  { method: "delete", path: () => "/api/v1/inbox/session" },
  { method: "get", path: () => "/api/v1/inbox/conversations" },
  { method: "get", path: conversation },
  { method: "post", path: () => `${conversation()}/messages`, body: { body: "hi" } },
  { method: "post", path: () => `${conversation()}/typing`, body: { typing: true } },
  { method: "post", path: () => `${conversation()}/assign`, body: { member_id: null } },
  { method: "post", path: () => `${conversation()}/close` },
  { method: "post", path: () => `${conversation()}/reopen` },
  { method: "get", path: () => "/api/v1/inbox/events" },
  { method: "get", path: () => "/api/v1/inbox/tickets" },
  { method: "get", path: () => "/api/v1/inbox/tickets/some-ticket" },
  { method: "patch", path: () => "/api/v1/inbox/tickets/some-ticket", body: { status: "solved" } },
  { method: "post", path: () => "/api/v1/inbox/tickets/some-ticket/replies", body: { body: "Thanks" } },
  { method: "get", path: () => "/api/v1/inbox/attachments/some-file" },
  { method: "get", path: () => "/api/v1/inbox/sites" },
  { method: "post", path: () => "/api/v1/inbox/sites", body: { id: "new-site", origins: ["https://new.example"] }, owner: true },
  { method: "patch", path: () => `/api/v1/inbox/sites/${started.site.id}`, body: { offline: true }, owner: true },
  { method: "get", path: () => "/api/v1/inbox/members" },
  { method: "post", path: () => "/api/v1/inbox/members/invites", body: { email: "new@team.example", name: "New", role: "agent" }, owner: true },
  { method: "patch", path: () => `/api/v1/inbox/members/${agent.id}`, body: { name: "Renamed" }, owner: true },
  { method: "post", path: () => `/api/v1/inbox/members/${agent.id}/deactivate`, owner: true },
];
const label = (route: (typeof routes)[number]) => `${route.method.toUpperCase()} ${route.path().replace(/\/api\/v1\/inbox/, "")}`;
const callRoute = (route: (typeof routes)[number], options: CallOptions) => api[route.method](route.path(), { body: route.body, ...options });

describe("every inbox route", () => {
  test("without a session → 401 unauthorized, nothing changed", async () => {
    for (const route of routes) {
      const before = await rowCounts();
      const response = await callRoute(route, as(null));
      expect({ route: label(route), status: response.status, code: response.json.result.code }).toEqual({
        route: label(route),
        status: 401,
        code: "unauthorized",
      });
      expect(await rowCounts()).toEqual(before);
    }
  });

  test("owner-only routes → 403 forbidden for an agent, nothing changed", async () => {
    for (const route of routes.filter((entry) => entry.owner)) {
      const before = await rowCounts();
      const response = await callRoute(route, as(agent));
      expect({ route: label(route), status: response.status, code: response.json.result.code }).toEqual({ route: label(route), status: 403, code: "forbidden" });
      expect(await rowCounts()).toEqual(before);
    }
  });

  test("state changes without the inbox's Origin → 403 origin_not_allowed, nothing changed", async () => {
    const prisma = await db();
    const state = async () => ({ rows: await rowCounts(), conversation: await prisma.conversation.findUnique({ where: { id: started.conversationId } }), members: await prisma.member.findMany({ orderBy: { id: "asc" } }), sites: await prisma.site.findMany({ orderBy: { id: "asc" } }) });
    for (const route of routes.filter((entry) => entry.method !== "get")) {
      for (const origin of [null, "https://evil.example", ORIGIN]) {
        const before = await state();
        const response = await callRoute(route, as(owner, { origin }));
        expect({ route: label(route), status: response.status, code: response.json.result.code }).toEqual({ route: label(route), status: 403, code: "origin_not_allowed" });
        expect(await state()).toEqual(before);
      }
    }
  });

  test("bad input → 400 invalid_request, nothing changed", async () => {
    const bad: [string, string, unknown][] = [
      ["post", `${conversation()}/messages`, { body: "   " }],
      ["post", `${conversation()}/messages`, { body: "x", kind: "shout" }],
      ["post", `${conversation()}/messages`, { body: "x".repeat(4001) }],
      ["post", `${conversation()}/typing`, { typing: "yes" }],
      ["post", `${conversation()}/assign`, { member: "x" }],
      ["post", "/api/v1/inbox/sites", { id: "ok-site", origins: ["https://shop.example/path"] }],
      ["post", "/api/v1/inbox/sites", { id: "bad id!", origins: [] }],
      ["patch", `/api/v1/inbox/sites/${started.site.id}`, { daily_allowance: -1 }],
      ["post", "/api/v1/inbox/members/invites", { email: "nope", name: "N", role: "agent" }],
      ["post", "/api/v1/inbox/members/invites", { email: "a@b.example", name: "N", role: "admin" }],
      ["patch", `/api/v1/inbox/members/${agent.id}`, { avatar: { content_type: "image/png", bytes: Buffer.from("GIF89a....").toString("base64") } }],
      ["patch", `/api/v1/inbox/members/${agent.id}`, { name: "" }],
    ];
    for (const [method, path, body] of bad) {
      const before = await rowCounts();
      const response = await api[method as "post"](path, as(owner, { body }));
      expect({ path, body, status: response.status, code: response.json.result.code }).toEqual({ path, body, status: 400, code: "invalid_request" });
      expect(await rowCounts()).toEqual(before);
    }
    for (const query of ["status=maybe", "assigned=them", "limit=0", "cursor=zzz"]) {
      expectError(await api.get(`/api/v1/inbox/conversations?${query}`, as(agent)), 400, "invalid_request");
    }
  });
});

describe("conversations", () => {
  test("the list: newest activity first, preview, visitor name, unread per member, unread total", async () => {
    const older = await openConversation({ body: "older question", client_id: "o1" });
    const newer = await startConversation(older.site.id, { body: "newer question", client_id: "n1" });
    const response = await api.get(`/api/v1/inbox/conversations?site=${older.site.id}`, as(agent));
    expect(response.status).toBe(200);
    const { items, unread_total } = response.json.result;
    expect(items.map((item: { id: string }) => item.id)).toEqual([newer.conversationId, older.conversationId]);
    expect(items[0]).toMatchObject({ visitor_name: null, unread_count: 1, status: "open", last_message: { body: "newer question", author_type: "visitor" } });
    expect(unread_total).toBeGreaterThanOrEqual(2);

    // Reading marks it read for this member only.
    expect((await api.get(`/api/v1/inbox/conversations/${newer.conversationId}`, as(agent))).status).toBe(200);
    const after = (await api.get(`/api/v1/inbox/conversations?site=${older.site.id}`, as(agent))).json.result;
    expect(after.items.find((item: { id: string }) => item.id === newer.conversationId).unread_count).toBe(0);
    expect(after.unread_total).toBe(unread_total - 1);
    const forOwner = (await api.get(`/api/v1/inbox/conversations?site=${older.site.id}`, as(owner))).json.result;
    expect(forOwner.items.find((item: { id: string }) => item.id === newer.conversationId).unread_count).toBe(1);

    // A new visitor message moves the older one to the top.
    await api.post("/api/v1/chat/visitor/messages", { ...visitor(older), body: { body: "still there?", client_id: "o2" } });
    const reordered = (await api.get(`/api/v1/inbox/conversations?site=${older.site.id}`, as(agent))).json.result.items;
    expect(reordered[0]).toMatchObject({ id: older.conversationId, unread_count: 2, last_message: { body: "still there?" } });
  });

  test("pages with next_cursor, and mine / unassigned / closed filters", async () => {
    const site = await createSite();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await startConversation(site.id, { body: `q${i}`, client_id: `q${i}` })).conversationId);
    const first = (await api.get(`/api/v1/inbox/conversations?site=${site.id}&limit=2`, as(agent))).json.result;
    expect(first.items).toHaveLength(2);
    const second = (await api.get(`/api/v1/inbox/conversations?site=${site.id}&limit=2&cursor=${first.next_cursor}`, as(agent))).json.result;
    expect([...first.items, ...second.items].map((item: { id: string }) => item.id)).toEqual([...ids].reverse());
    expect(second.next_cursor).toBeNull();

    expect((await api.post(`/api/v1/inbox/conversations/${ids[0]}/assign`, as(agent, { body: { member_id: agent.id } }))).status).toBe(200);
    const mine = (await api.get(`/api/v1/inbox/conversations?site=${site.id}&assigned=me`, as(agent))).json.result.items;
    expect(mine.map((item: { id: string }) => item.id)).toEqual([ids[0]]);
    expect(mine[0].assigned_member_name).toBe("Andy Agent");
    const unassigned = (await api.get(`/api/v1/inbox/conversations?site=${site.id}&assigned=unassigned`, as(agent))).json.result.items;
    expect(unassigned).toHaveLength(2);
    expectError(await api.post(`/api/v1/inbox/conversations/${ids[0]}/assign`, as(agent, { body: { member_id: "demo-bot-or-nobody" } })), 404, "member_not_found");

    await api.post(`/api/v1/inbox/conversations/${ids[1]}/close`, as(agent));
    const closed = (await api.get(`/api/v1/inbox/conversations?site=${site.id}&status=closed`, as(agent))).json.result.items;
    expect(closed.map((item: { id: string }) => item.id)).toEqual([ids[1]]);
    expect((await api.get(`/api/v1/inbox/conversations?site=${site.id}&status=all`, as(agent))).json.result.items).toHaveLength(3);
  });

  test("a reply reaches the visitor with the member's name; a note never does", async () => {
    const chat = await openConversation({ body: "help", client_id: "h1" });
    const reply = await api.post(`/api/v1/inbox/conversations/${chat.conversationId}/messages`, as(agent, { body: { body: "Happy to help!" } }));
    expect(reply.status).toBe(201);
    const note = await api.post(`/api/v1/inbox/conversations/${chat.conversationId}/messages`, as(agent, { body: { body: "VIP customer", kind: "note" } }));
    expect(note.status).toBe(201);
    const seen = (await api.get("/api/v1/chat/visitor/messages", visitor(chat))).json.result.items;
    expect(seen.map((item: { body: string; author_name: string | null }) => [item.body, item.author_name])).toEqual([
      ["help", null],
      ["Happy to help!", "Andy Agent"],
    ]);
    const read = (await api.get(`/api/v1/inbox/conversations/${chat.conversationId}`, as(owner))).json.result;
    expect(read.messages.map((item: { kind: string }) => item.kind)).toEqual(["message", "message", "note"]);
    // Seen: the list sent the visitor up to the reply.
    expect(read.visitor_seen_sequence).toBe(reply.json.result.message.sequence);
  });

  test("staff typing is shown to the visitor; closing tells the visitor and stops sends; reopening allows them", async () => {
    const chat = await openConversation({ body: "hi", client_id: "t1" });
    expect((await api.post(`/api/v1/inbox/conversations/${chat.conversationId}/typing`, as(agent, { body: { typing: true } }))).status).toBe(200);
    const presence = (await api.get("/api/v1/chat/visitor/presence", visitor(chat))).json.result;
    expect(presence).toEqual([expect.objectContaining({ actor_id: agent.id, author_type: "staff", typing: true })]);

    expect((await api.post(`/api/v1/inbox/conversations/${chat.conversationId}/close`, as(agent))).status).toBe(200);
    expect((await api.post(`/api/v1/inbox/conversations/${chat.conversationId}/close`, as(agent))).status).toBe(200); // twice: one notice
    const items = (await api.get("/api/v1/chat/visitor/messages", visitor(chat))).json.result.items;
    expect(items.filter((item: { author_type: string }) => item.author_type === "system").map((item: { body: string }) => item.body)).toEqual(["This conversation was closed."]);
    expectError(await api.post("/api/v1/chat/visitor/messages", { ...visitor(chat), body: { body: "wait", client_id: "t2" } }), 409, "conversation_closed");

    expect((await api.post(`/api/v1/inbox/conversations/${chat.conversationId}/reopen`, as(agent))).json.result.status).toBe("open");
    expect((await api.post("/api/v1/chat/visitor/messages", { ...visitor(chat), body: { body: "wait", client_id: "t2" } })).status).toBe(201);

    // Staff read who closed and reopened; the visitor's copy of those lines names nobody.
    const staffLines = (await api.get(`/api/v1/inbox/conversations/${chat.conversationId}`, as(agent))).json.result.messages.filter(
      (message: { author_type: string }) => message.author_type === "system",
    );
    expect(staffLines.map((line: { event: string; author_name: string | null }) => [line.event, line.author_name])).toEqual([
      ["conversation_closed", "Andy Agent"],
      ["conversation_reopened", "Andy Agent"],
    ]);
    const visitorLines = (await api.get("/api/v1/chat/visitor/messages", visitor(chat))).json.result.items.filter((item: { author_type: string }) => item.author_type === "system");
    expect(visitorLines.map((line: { author_name: string | null; author_avatar: string | null }) => [line.author_name, line.author_avatar])).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  test("unknown conversations are 404", async () => {
    expectError(await api.get("/api/v1/inbox/conversations/nope", as(agent)), 404, "conversation_not_found");
    expectError(await api.post("/api/v1/inbox/conversations/nope/messages", as(agent, { body: { body: "x" } })), 404, "conversation_not_found");
    expectError(await api.post("/api/v1/inbox/conversations/nope/close", as(agent)), 404, "conversation_not_found");
    expectError(await api.post("/api/v1/inbox/conversations/nope/typing", as(agent, { body: { typing: true } })), 404, "conversation_not_found");
  });
});

describe("live events", () => {
  test("messages, new conversations, closing and visitor typing are signalled", async () => {
    const events: InboxEvent[] = [];
    const stop = await subscribeInbox((event) => events.push(event));
    try {
      const chat = await openConversation({ body: "live?", client_id: "l1" });
      await api.get(`/api/v1/chat/visitor/presence?typing=true`, visitor(chat));
      await api.post(`/api/v1/inbox/conversations/${chat.conversationId}/close`, as(agent));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const mine = events.filter((event) => "conversation_id" in event && event.conversation_id === chat.conversationId);
      expect(mine).toEqual(
        expect.arrayContaining([
          { type: "conversation", conversation_id: chat.conversationId },
          { type: "message", conversation_id: chat.conversationId, author_type: "visitor", kind: "message" },
          { type: "typing", conversation_id: chat.conversationId, typing: true },
          { type: "message", conversation_id: chat.conversationId, author_type: "system", kind: "message" },
        ]),
      );
    } finally {
      stop();
    }
  });

  test("the event stream answers text/event-stream and carries an event", async () => {
    const controller = new AbortController();
    const { GET } = await import("../../app/api/v1/inbox/events/route");
    const response = await GET(new Request("http://localhost:3000/api/v1/inbox/events", { headers: { Cookie: agent.cookie }, signal: controller.signal }), {});
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    expect(text).toContain('"type":"ready"');
    await openConversation({ body: "streamed", client_id: "s1" });
    while (!text.includes('"type":"message"')) text += decoder.decode((await reader.read()).value);
    controller.abort();
  });
});

describe("tickets and files", () => {
  test("tickets list and detail; a file downloads only with a session (or the operator token)", async () => {
    const site = await createSite();
    const filed = await fileTicket(site.id, ticket({ files: [file()] }));
    expect((await putUpload(filed.uploads[0]!.upload_url, PNG_BYTES)).status).toBe(200);
    const list = (await api.get(`/api/v1/inbox/tickets?site=${site.id}`, as(agent))).json.result.items;
    expect(list).toHaveLength(1);
    const detail = (await api.get(`/api/v1/inbox/tickets/${list[0].id}`, as(agent))).json.result;
    expect(detail).toMatchObject({ number: filed.number, subject: "My order", attachments: [{ name: "photo.png", uploaded: true }] });
    const attachmentId = detail.attachments[0].id;

    const { GET } = await import("../../app/api/v1/inbox/attachments/[id]/route");
    const download = (headers: Record<string, string>) =>
      GET(new Request(`http://localhost:3000/api/v1/inbox/attachments/${attachmentId}`, { headers }), { params: Promise.resolve({ id: attachmentId }) });
    const refused = await download({});
    expect(refused.status).toBe(401);
    const ok = await download({ Cookie: agent.cookie });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/png");
    expect(ok.headers.get("content-disposition")).toBe(`attachment; filename="photo.png"; filename*=UTF-8''photo.png`);
    expect(Buffer.from(await ok.arrayBuffer())).toEqual(PNG_BYTES);

    const admin = await import("../../app/api/v1/admin/attachments/[id]/route");
    const viaAdmin = (authorization?: string) =>
      admin.GET(new Request(`http://localhost:3000/api/v1/admin/attachments/${attachmentId}`, { headers: authorization ? { authorization } : {} }), {
        params: Promise.resolve({ id: attachmentId }),
      });
    expect((await viaAdmin()).status).toBe(401);
    const adminOk = await viaAdmin("Bearer test-admin-token-0123456789abcdef");
    expect(adminOk.status).toBe(200);
    expect(adminOk.headers.get("content-disposition")).toMatch(/^attachment;/);
    expectError(await api.get("/api/v1/inbox/attachments/unknown", as(agent)), 404, "not_found");
  });

  test("a file not yet uploaded is 404", async () => {
    const site = await createSite();
    await fileTicket(site.id, ticket({ files: [file()] }));
    const [entry] = (await api.get(`/api/v1/inbox/tickets?site=${site.id}`, as(agent))).json.result.items;
    expectError(await api.get(`/api/v1/inbox/attachments/${entry.attachments[0].id}`, as(agent)), 404, "not_found");
  });
});

describe("settings (owners)", () => {
  test("sites: create with canonical origins, update, list", async () => {
    const created = await api.post("/api/v1/inbox/sites", as(owner, { body: { id: "owner-site", name: "Owner site", origins: ["https://Shop.Example:443"] } }));
    expect(created.status).toBe(201);
    expect(created.json.result.origins).toEqual(["https://shop.example"]);
    const updated = await api.patch("/api/v1/inbox/sites/owner-site", as(owner, { body: { offline: true, daily_allowance: 9 } }));
    expect(updated.json.result).toMatchObject({ offline: true, daily_allowance: 9 });
    const listed = (await api.get("/api/v1/inbox/sites", as(agent))).json.result;
    expect(listed.map((site: { id: string }) => site.id)).toContain("owner-site");
  });

  test("members: invite, update name/email/role/notify/picture, list", async () => {
    const invite = await api.post("/api/v1/inbox/members/invites", as(owner, { body: { email: "Newbie@Team.example", name: "Newbie", role: "agent" } }));
    expect(invite.status).toBe(201);
    expect(invite.json.result.invite_url).toMatch(/\/inbox\/invite\?code=in_/);
    const patch = await api.patch(`/api/v1/inbox/members/${agent.id}`, as(owner, {
      body: { name: "Andy A.", notify: false, avatar: { content_type: "image/png", bytes: PNG_BYTES.toString("base64") } },
    }));
    expect(patch.status).toBe(200);
    expect(patch.json.result).toMatchObject({ id: agent.id, name: "Andy A.", notify: false, has_picture: true, role: "agent", active: true });
    const team = (await api.get("/api/v1/inbox/members", as(agent))).json.result;
    expect(team.map((member: { id: string }) => member.id)).toEqual(expect.arrayContaining([owner.id, agent.id]));
    expectError(await api.patch("/api/v1/inbox/members/nobody", as(owner, { body: { name: "X" } })), 404, "member_not_found");
  });
});

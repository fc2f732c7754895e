import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { pruneAuditEvents } from "../../lib/audit/prune";
import { recordAudit } from "../../lib/audit/record";
import { api, type ApiResponse } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite } from "../support/fixtures";
import { as, codeOf, createStaff, INBOX_ORIGIN, PASSWORD, type Staff } from "../support/inbox";

// The audit log (issue 29 item 3; docs/security.md "Audit log"): every state change by a member or
// the operator token appends one row with who, what, on what, from where — and never a secret; the
// database refuses to edit or delete a row outside the retention pruning; owners and the operator
// list and filter it, owners export it as CSV.

process.env.TRUSTED_PROXY_HOPS = "1"; // the client address is X-Forwarded-For's last entry

const ADMIN_AUDIT = "/api/v1/admin/audit";
const INBOX_AUDIT = "/api/v1/inbox/audit";
let owner: Staff;
let agent: Staff;

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
});

interface Row {
  actor: string;
  actor_member_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

const from = (ip: string) => ({ "X-Forwarded-For": ip });
const asFrom = (staff: Staff, ip: string, options: Parameters<typeof as>[1] = {}) => as(staff, { ...options, headers: from(ip) });

async function newest(action: string): Promise<Row> {
  const response = await api.get(`${ADMIN_AUDIT}?action=${action}&limit=1`, { admin: true });
  expect(response.status).toBe(200);
  expect(response.json.result.items, `no ${action} row`).toHaveLength(1);
  return response.json.result.items[0];
}

const auditCount = async () => (await db()).auditEvent.count();
const everyAuditRow = async () =>
  JSON.stringify(await (await db()).$queryRawUnsafe(`SELECT coalesce(json_agg(a), '[]'::json)::text AS rows FROM audit_events a`));

function expectCreated(response: ApiResponse, status = 201) {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  return response.json.result;
}

describe("each state change appends one row: actor, target, ip, no secret", () => {
  const shown: string[] = [PASSWORD];

  test("sign-in, a failed sign-in and sign-out", async () => {
    const signIn = (password: string) =>
      api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: agent.email, password }, headers: from("203.0.113.7") });
    const before = await auditCount();
    expect((await signIn("not the password")).status).toBe(401);
    expect(await newest("staff.sign_in_failed")).toMatchObject({
      actor: "anonymous",
      actor_member_id: null,
      target: `member:${agent.id}`,
      ip: "203.0.113.7",
      details: { method: "password", reason: "invalid_credentials" },
    });
    const signedIn = await signIn(PASSWORD);
    expect(signedIn.status).toBe(200);
    shown.push(signedIn.headers.get("set-cookie")!.split(";")[0]!.split("=")[1]!);
    expect(await newest("staff.sign_in")).toMatchObject({ actor: `member:${agent.id}`, actor_member_id: agent.id, target: `member:${agent.id}`, ip: "203.0.113.7" });
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    expect((await api.delete("/api/v1/inbox/session", { origin: INBOX_ORIGIN, headers: { Cookie: cookie, ...from("2001:db8::1") } })).status).toBe(200);
    expect(await newest("staff.sign_out")).toMatchObject({ actor: `member:${agent.id}`, target: `member:${agent.id}`, ip: "2001:db8::1" });
    expect(await auditCount()).toBe(before + 3);
  });

  test("a failed sign-in with an address no member has keeps only its keyed hash, never what was typed", async () => {
    const typed = ["stranger@elsewhere.example", "hunter2-typed-as-email@x.example"];
    for (const email of typed) {
      expect((await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email, password: "wrong" } })).status).toBe(401);
    }
    const row = await newest("staff.sign_in_failed");
    expect(row).toMatchObject({ actor: "anonymous", details: { method: "password", reason: "invalid_credentials" } });
    expect(row.target).toMatch(/^email_hash:[\w-]{22}$/);
    // The same address twice: the same hash, so attempts on one address group together.
    expect((await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: "HUNTER2-typed-as-email@x.example", password: "no" } })).status).toBe(401);
    expect((await newest("staff.sign_in_failed")).target).toBe(row.target);
    const rows = await everyAuditRow();
    for (const email of typed) {
      expect(rows).not.toContain(email);
      expect(rows).not.toContain(email.split("@")[0]);
    }
  });

  test("invites: created, revoked, accepted", async () => {
    const invited = expectCreated(
      await api.post("/api/v1/inbox/members/invites", asFrom(owner, "198.51.100.1", { body: { email: "new.person@team.example", role: "agent", name: "New Person" } })),
    );
    shown.push(codeOf(invited.invite_url));
    expect(await newest("invite.created")).toMatchObject({
      actor: `member:${owner.id}`,
      target: `invite:${invited.id}`,
      ip: "198.51.100.1",
      details: { email: "new.person@team.example", role: "agent", emailed: false },
    });
    expect((await api.delete(`/api/v1/inbox/members/invites/${invited.id}`, asFrom(owner, "198.51.100.1"))).status).toBe(200);
    expect(await newest("invite.revoked")).toMatchObject({ actor: `member:${owner.id}`, target: `invite:${invited.id}` });

    const again = expectCreated(await api.post("/api/v1/inbox/members/invites", as(owner, { body: { email: "second@team.example", role: "agent", name: "Second" } })));
    shown.push(codeOf(again.invite_url));
    const accepted = await api.post("/api/v1/inbox/invites/accept", { origin: INBOX_ORIGIN, body: { code: codeOf(again.invite_url), password: PASSWORD }, headers: from("198.51.100.2") });
    expect(accepted.status).toBe(200);
    const memberId = accepted.json.result.member_id;
    expect(await newest("invite.accepted")).toMatchObject({ actor: `member:${memberId}`, target: `member:${memberId}`, ip: "198.51.100.2", details: {} });
  });

  test("a role change and a deactivation", async () => {
    const member = await createStaff("agent", "Rolf Role");
    expect((await api.patch(`/api/v1/inbox/members/${member.id}`, asFrom(owner, "198.51.100.3", { body: { role: "owner" } }))).status).toBe(200);
    expect(await newest("member.role_changed")).toMatchObject({ actor: `member:${owner.id}`, target: `member:${member.id}`, details: { role: "owner", fields: ["role"] } });
    expect((await api.post(`/api/v1/inbox/members/${member.id}/deactivate`, asFrom(owner, "198.51.100.3"))).status).toBe(200);
    expect(await newest("member.deactivated")).toMatchObject({ actor: `member:${owner.id}`, target: `member:${member.id}`, ip: "198.51.100.3" });
  });

  test("sites: created, settings and service hours changed, identity secret shown (operator)", async () => {
    const id = `audit-site-${Date.now()}`;
    expectCreated(await api.post("/api/v1/inbox/sites", asFrom(owner, "198.51.100.4", { body: { id, origins: ["https://audit.example"] } })));
    expect(await newest("site.created")).toMatchObject({ actor: `member:${owner.id}`, target: `site:${id}`, details: { fields: ["id", "origins"] } });
    const hours = { timezone: "Europe/Paris", hours: { mon: [["09:00", "17:00"]] }, away_message: "Back soon" };
    expect((await api.patch(`/api/v1/inbox/sites/${id}`, as(owner, { body: hours }))).status).toBe(200);
    const changed = await newest("site.settings_changed");
    expect(changed).toMatchObject({ target: `site:${id}` });
    expect(changed.details.fields).toEqual(expect.arrayContaining(["timezone", "hours", "away_message"]));
    const secret = expectCreated(await api.post(`/api/v1/admin/sites/${id}/identity-secret`, { admin: true, headers: from("192.0.2.9") }));
    shown.push(secret.identity_secret);
    expect(await newest("secret.shown")).toMatchObject({ actor: "operator", actor_member_id: null, target: `site:${id}`, ip: "192.0.2.9", details: { kind: "identity_secret" } });
  });

  test("webhooks: created (its secret shown once), updated, tested, deleted", async () => {
    const hook = expectCreated(await api.post("/api/v1/inbox/webhooks", as(owner, { body: { url: "https://hooks.example/parley?key=sk_live_abc", events: ["message.created"] } })));
    shown.push(hook.secret, "sk_live_abc");
    expect(await newest("webhook.created")).toMatchObject({ target: `webhook:${hook.id}`, details: { shown_once: "webhook_secret" } });
    expect((await api.patch(`/api/v1/inbox/webhooks/${hook.id}`, as(owner, { body: { description: "CRM" } }))).status).toBe(200);
    expect(await newest("webhook.updated")).toMatchObject({ target: `webhook:${hook.id}`, details: { fields: ["description"] } });
    expect((await api.post(`/api/v1/inbox/webhooks/${hook.id}/test`, as(owner))).status).toBe(201);
    expect(await newest("webhook.tested")).toMatchObject({ target: `webhook:${hook.id}` });
    expect((await api.delete(`/api/v1/admin/webhooks/${hook.id}`, { admin: true })).status).toBe(200);
    expect(await newest("webhook.deleted")).toMatchObject({ actor: "operator", target: `webhook:${hook.id}` });
  });

  test("team saved replies and labels; members created by the operator", async () => {
    const reply = expectCreated(await api.post("/api/v1/inbox/saved-replies", as(owner, { body: { shortcut: "thanks", title: "Thanks", body: "Thank you!", scope: "team" } })));
    expect(await newest("saved_reply.created")).toMatchObject({ actor: `member:${owner.id}`, target: `saved_reply:${reply.id}`, details: { scope: "team" } });
    const label = expectCreated(await api.post("/api/v1/inbox/labels", as(owner, { body: { name: "Audited", color: "#112233" } })));
    expect(await newest("label.created")).toMatchObject({ target: `label:${label.id}` });
    expect((await api.delete(`/api/v1/inbox/labels/${label.id}`, as(owner))).status).toBe(200);
    expect(await newest("label.deleted")).toMatchObject({ target: `label:${label.id}` });
    expectCreated(await api.post("/api/v1/admin/members", { admin: true, body: { id: "audited-bot", name: "Bot" } }));
    expect(await newest("member.created")).toMatchObject({ actor: "operator", target: "member:audited-bot", ip: null });
  });

  test("no row holds a secret, a password, a session token or an invite code", async () => {
    const rows = await everyAuditRow();
    expect(shown.length).toBeGreaterThan(5);
    for (const secret of shown) expect(rows, "a secret in the audit log").not.toContain(secret);
  });

  test("refused requests append nothing", async () => {
    const before = await auditCount();
    expectError(await api.post("/api/v1/inbox/labels", as(agent, { body: { name: "Nope", color: "#000000" } })), 403, "forbidden");
    expectError(await api.patch("/api/v1/inbox/sites/no-such-site", as(owner, { body: { name: "x" } })), 404, "site_not_found");
    expectError(await api.post("/api/v1/inbox/webhooks", as(owner, { body: { url: 42 } })), 400, "invalid_request");
    expectError(await api.post("/api/v1/admin/members", { body: { id: "x", name: "x" } }), 401, "unauthorized");
    expect(await auditCount()).toBe(before);
  });
});

describe("the database refuses to edit or delete a row", () => {
  const refused = (sql: string) => expect((async () => (await db()).$executeRawUnsafe(sql))()).rejects.toThrow(/append-only/);

  test("UPDATE, DELETE and TRUNCATE are refused, whoever sends them", async () => {
    const before = await everyAuditRow();
    await refused(`UPDATE audit_events SET action = 'nothing.happened'`);
    await refused(`UPDATE audit_events SET details = '{}' WHERE action = 'staff.sign_in_failed'`);
    await refused(`DELETE FROM audit_events`);
    await refused(`TRUNCATE audit_events`);
    expect(await everyAuditRow()).toBe(before);
  });

  test("only the pruning deletes, and only rows older than the bound it names", async () => {
    const prisma = await db();
    await prisma.$executeRawUnsafe(`INSERT INTO audit_events (at, actor, action) VALUES (now() - interval '40 days', 'operator', 'old.row'), (now() - interval '10 days', 'operator', 'recent.row')`);
    // The setting alone, without a bound, or with a bound the row is within: still refused.
    const inPrune = (keep: string | null, where: string) =>
      prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SELECT set_config('parley.audit_prune', 'on', true)`);
        if (keep !== null) await tx.$executeRawUnsafe(`SELECT set_config('parley.audit_keep_days', '${keep}', true)`);
        return tx.$executeRawUnsafe(`DELETE FROM audit_events WHERE ${where}`);
      });
    await expect(inPrune(null, `action = 'old.row'`)).rejects.toThrow(/append-only/);
    await expect(inPrune("not a number", `action = 'old.row'`)).rejects.toThrow(/append-only/);
    await expect(inPrune("30", `action = 'recent.row'`)).rejects.toThrow(/append-only/);
    await expect(inPrune("0", `action = 'recent.row'`)).rejects.toThrow(/append-only/);
    const total = await auditCount();
    expect(await pruneAuditEvents(30)).toBe(1);
    expect(await prisma.auditEvent.count({ where: { action: "old.row" } })).toBe(0);
    expect(await prisma.auditEvent.count({ where: { action: "recent.row" } })).toBe(1);
    expect(await auditCount()).toBe(total - 1);
    // The settings were transaction-local: outside the pruning, deletes are refused again.
    await refused(`DELETE FROM audit_events WHERE action = 'recent.row'`);
  });
});

describe("listing: filters, pages, bad parameters, who may read", () => {
  let start: string;
  beforeAll(async () => {
    start = new Date(Date.now() - 1).toISOString();
    // A few milliseconds apart: rows of the same millisecond are ordered by their (random) ids.
    const apart = () => new Promise((resolve) => setTimeout(resolve, 3));
    for (let i = 1; i <= 5; i++) {
      await recordAudit({ actor: "member:lister", action: `listing.step`, target: `step:${i}`, details: { i } });
      await apart();
    }
    await recordAudit({ actor: "member:lister", action: "listing.other" });
  });

  test("by actor, by action and by kind, by time, newest first", async () => {
    const byActor = await api.get(`${ADMIN_AUDIT}?actor=member:lister`, { admin: true });
    expect(byActor.json.result.items.map((row: Row) => row.target)).toEqual([null, "step:5", "step:4", "step:3", "step:2", "step:1"]);
    const byAction = await api.get(`${ADMIN_AUDIT}?action=listing.step`, { admin: true });
    expect(byAction.json.result.items).toHaveLength(5);
    const byKind = await api.get(`${ADMIN_AUDIT}?action=listing.*`, { admin: true });
    expect(byKind.json.result.items).toHaveLength(6);
    const later = await api.get(`${ADMIN_AUDIT}?actor=member:lister&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { admin: true });
    expect(later.json.result.items).toHaveLength(0);
    const between = await api.get(`${ADMIN_AUDIT}?actor=member:lister&from=${encodeURIComponent(start)}&to=${encodeURIComponent(new Date(Date.now() + 1000).toISOString())}`, { admin: true });
    expect(between.json.result.items).toHaveLength(6);
  });

  test("pages follow next_cursor without repeating or skipping a row", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ApiResponse = await api.get(`${ADMIN_AUDIT}?actor=member:lister&limit=4${cursor ? `&cursor=${cursor}` : ""}`, { admin: true });
      expect(page.status).toBe(200);
      seen.push(...page.json.result.items.map((row: Row & { id: string }) => row.id));
      cursor = page.json.result.next_cursor;
      expect(page.json.result.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(6);
  });

  test.each([
    ["limit=0", "limit"],
    ["limit=201", "limit"],
    ["limit=ten", "limit"],
    ["cursor=yesterday", "cursor"],
    ["action=DROP%20TABLE", "action"],
    ["actor=root", "actor"],
    ["from=last%20week", "from"],
    ["from=0000-01-01T00:00:00Z", "from"],
    ["to=2026-02-30T00:00:00Z", "to"],
    ["from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z", "to"],
    ["sort=asc", ""],
  ])("?%s → 400 invalid_request naming the field", async (query, field) => {
    for (const response of [await api.get(`${ADMIN_AUDIT}?${query}`, { admin: true }), await api.get(`${INBOX_AUDIT}?${query}`, as(owner))]) {
      expectError(response, 400, "invalid_request");
      if (field) expect(JSON.stringify(response.json.result.fields)).toContain(field);
    }
  });

  test("the operator needs the token; the inbox's log is for owners", async () => {
    expectError(await api.get(ADMIN_AUDIT), 401, "unauthorized");
    expectError(await api.get(ADMIN_AUDIT, { admin: "wrong-token-0123456789abcdef" }), 401, "unauthorized");
    for (const path of [INBOX_AUDIT, `${INBOX_AUDIT}.csv`]) {
      expectError(await api.get(path, as(null)), 401, "unauthorized");
      expectError(await api.get(path, as(agent)), 403, "forbidden");
    }
    const mine = await api.get(`${INBOX_AUDIT}?actor=member:lister&limit=2`, as(owner));
    expect(mine.status).toBe(200);
    expect(mine.json.result.items).toHaveLength(2);
  });

  test("no route edits or deletes the log", async () => {
    for (const method of ["post", "put", "patch", "delete"] as const) {
      expectError(await api[method](ADMIN_AUDIT, { admin: true, body: {} }), 404, "not_found");
      expectError(await api[method](INBOX_AUDIT, as(owner, { body: {} })), 404, "not_found");
    }
  });

  test("owners export it as CSV, filtered, with formulas defused", async () => {
    await recordAudit({ actor: "member:lister", action: "listing.csv", target: "=HYPERLINK(\"https://evil.example\")", details: { note: 'say "hi"' } });
    const response = await fetchCsv(`${INBOX_AUDIT}.csv?actor=member:lister&action=listing.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="parley-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("at,actor,action,target,ip,details,id");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"member:lister","listing.csv","'=HYPERLINK(""https://evil.example"")",""`);
    expect(lines[1]).toContain(`"{""note"":""say \\""hi\\""""}"`);
    expectError(await api.get(`${INBOX_AUDIT}.csv?limit=5`, as(owner)), 400, "invalid_request");
  });
});

async function fetchCsv(path: string) {
  const { GET } = await import("../../app/api/v1/inbox/audit.csv/route");
  const request = new Request(new URL(path, "http://localhost:3000"), { headers: { Cookie: owner.cookie, Origin: INBOX_ORIGIN } });
  const response = await GET(request, { params: Promise.resolve({}) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

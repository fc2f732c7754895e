import { createHash } from "node:crypto";
import { describe, expect, test, vi } from "vitest";
import { db } from "../../lib/db/client";
import { limiterFor } from "../../lib/rate-limits/enforce-rate-limit";
import { rateLimitRule } from "../../lib/rate-limits/limits";
import { passwordWork } from "../../lib/staff/passwords";
import { setupLinkIfNoOwner } from "../../lib/staff/invites";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { as, codeOf, cookieFrom, createStaff, INBOX_ORIGIN, inviteUrl, PASSWORD } from "../support/inbox";
import { awayFromWindowEdge } from "../support/rate-limits";
import { rowCounts } from "../support/row-counts";

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const signIn = (email: string, password: string, options: { origin?: string | null; ip?: string } = {}) =>
  api.post("/api/v1/inbox/session", {
    origin: options.origin === undefined ? INBOX_ORIGIN : options.origin,
    body: { email, password },
    headers: options.ip ? { "X-Forwarded-For": options.ip } : {},
  });

describe("the first owner", () => {
  test("a setup link makes the first owner, once; with an owner there is no setup link", async () => {
    const link = await setupLinkIfNoOwner();
    expect(link).toMatch(/^http:\/\/localhost:3000\/inbox\/setup\?code=su_/);
    const body = { code: codeOf(link!), name: "Olive Owner", email: "Olive@Owner.example", password: PASSWORD };
    const accepted = await api.post("/api/v1/inbox/invites/accept", { origin: INBOX_ORIGIN, body });
    expect(accepted.status).toBe(200);
    const setCookie = accepted.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/); // no Secure on http
    const me = await api.get("/api/v1/inbox/session", as(null, { headers: { Cookie: cookieFrom(setCookie) } }));
    expect(me.json.result).toMatchObject({ name: "Olive Owner", email: "olive@owner.example", role: "owner" });

    expectError(await api.post("/api/v1/inbox/invites/accept", { origin: INBOX_ORIGIN, body }), 400, "invite_invalid");
    expect(await setupLinkIfNoOwner()).toBeNull();
  });
});

describe("sessions and passwords", () => {
  test("only hashes are stored: the session token's SHA-256 and an scrypt password hash", async () => {
    const staff = await createStaff();
    const token = staff.cookie.split("=")[1]!;
    const prisma = await db();
    const sessions = await prisma.staffSession.findMany({ where: { memberId: staff.id } });
    expect(sessions.map((session) => session.tokenHash)).toEqual([sha256(token)]);
    const member = await prisma.member.findUniqueOrThrow({ where: { id: staff.id } });
    expect(member.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(member.passwordHash).not.toContain(PASSWORD);
  });

  test("sessions slide: a use more than a minute after the last extension moves them 30 days ahead and resends the cookie", async () => {
    const staff = await createStaff();
    const prisma = await db();
    const fresh = await api.get("/api/v1/inbox/session", as(staff));
    expect(fresh.headers.get("set-cookie")).toBeNull(); // just created: nothing to extend
    const aged = new Date(Date.now() + 20 * 24 * 3600 * 1000);
    await prisma.staffSession.updateMany({ where: { memberId: staff.id }, data: { expiresAt: aged } });
    const used = await api.get("/api/v1/inbox/session", as(staff));
    expect(used.headers.get("set-cookie")).toBe(`${staff.cookie}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000`);
    const [session] = await prisma.staffSession.findMany({ where: { memberId: staff.id } });
    expect(session!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29.9 * 24 * 3600 * 1000);
    // The live channel slides it too.
    await prisma.staffSession.updateMany({ where: { memberId: staff.id }, data: { expiresAt: aged } });
    const controller = new AbortController();
    const { GET } = await import("../../app/api/v1/inbox/events/route");
    const stream = await GET(new Request("http://localhost:3000/api/v1/inbox/events", { headers: { Cookie: staff.cookie }, signal: controller.signal }), {});
    expect(stream.headers.get("set-cookie")).toMatch(/^parley_session=ps_.*Max-Age=2592000/);
    controller.abort();
    // An expired session is gone.
    await prisma.staffSession.updateMany({ where: { memberId: staff.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await api.get("/api/v1/inbox/session", as(staff)), 401, "unauthorized");
  });

  test("signing in with the right password gives a session; signing out ends it", async () => {
    const staff = await createStaff();
    const response = await signIn(staff.email.toUpperCase(), PASSWORD);
    expect(response.status).toBe(200);
    const cookie = cookieFrom(response.headers.get("set-cookie"));
    expect((await api.get("/api/v1/inbox/session", { headers: { Cookie: cookie } })).status).toBe(200);

    const out = await api.delete("/api/v1/inbox/session", as(null, { headers: { Cookie: cookie } }));
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/^parley_session=; .*Max-Age=0/);
    expectError(await api.get("/api/v1/inbox/session", { headers: { Cookie: cookie } }), 401, "unauthorized");
  });

  test("a wrong password and an unknown email get the same 401 invalid_credentials", async () => {
    const staff = await createStaff();
    const wrong = await signIn(staff.email, "not the password", { ip: "10.0.0.1" });
    const unknown = await signIn("nobody@team.example", PASSWORD, { ip: "10.0.0.1" });
    expectError(wrong, 401, "invalid_credentials");
    expectError(unknown, 401, "invalid_credentials");
    expect(wrong.json.message).toBe(unknown.json.message);
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });

  test("after 5 failed sign-ins for an account, the 6th attempt is 429 even with the right password", async () => {
    await awayFromWindowEdge(15 * 60_000);
    const staff = await createStaff();
    for (let attempt = 1; attempt <= 5; attempt++) expectError(await signIn(staff.email, `wrong ${attempt}`), 401, "invalid_credentials");
    const sixth = await signIn(staff.email, PASSWORD);
    expectError(sixth, 429, "rate_limited");
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await createStaff();
    expect((await signIn(other.email, PASSWORD)).status).toBe(200);
  });

  test("no session, an unknown cookie or a malformed one → 401", async () => {
    expectError(await api.get("/api/v1/inbox/session"), 401, "unauthorized");
    expectError(await api.get("/api/v1/inbox/session", { headers: { Cookie: "parley_session=ps_nope" } }), 401, "unauthorized");
    expectError(await api.get("/api/v1/inbox/session", { headers: { Cookie: `parley_session=${"x".repeat(5000)}` } }), 401, "unauthorized");
  });

  test("sign-in without the inbox's Origin is 403 origin_not_allowed and creates no session", async () => {
    const staff = await createStaff();
    const before = await rowCounts();
    for (const origin of [null, "https://evil.example", "http://localhost:3001"]) {
      expectError(await signIn(staff.email, PASSWORD, { origin }), 403, "origin_not_allowed");
    }
    expect(await rowCounts()).toEqual(before);
  });

  test("bad sign-in input is 400 and creates nothing", async () => {
    const before = await rowCounts();
    for (const body of [{}, { email: "x@y.example" }, { email: "not-an-email", password: "x" }, { email: "x@y.example", password: "p", extra: 1 }]) {
      expectError(await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body }), 400, "invalid_request");
    }
    expect(await rowCounts()).toEqual(before);
  });
});

describe("invites", () => {
  test("an operator invite works once, for 7 days", async () => {
    const created = await api.post("/api/v1/admin/members", { admin: true, body: { id: "ivy", name: "Ivy" } });
    expect(created.status).toBe(201);
    const url = await inviteUrl("ivy", "ivy@team.example", "agent");
    expect(url).toMatch(/^http:\/\/localhost:3000\/inbox\/invite\?code=in_/);
    const invite = await (await db()).staffInvite.findFirstOrThrow({ where: { memberId: "ivy" } });
    expect(invite.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    expect(invite.codeHash).toBe(sha256(codeOf(url)));

    const body = { code: codeOf(url), password: PASSWORD };
    expect((await api.post("/api/v1/inbox/invites/accept", { origin: INBOX_ORIGIN, body })).status).toBe(200);
    expectError(await api.post("/api/v1/inbox/invites/accept", { origin: INBOX_ORIGIN, body }), 400, "invite_invalid");
    expect((await signIn("ivy@team.example", PASSWORD)).status).toBe(200);
  });

  test("an expired invite is refused and changes nothing", async () => {
    await api.post("/api/v1/admin/members", { admin: true, body: { id: "late", name: "Late" } });
    const url = await inviteUrl("late", "late@team.example", "agent");
    await (await db()).staffInvite.updateMany({ where: { memberId: "late" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const before = await rowCounts();
    expectError(await api.post("/api/v1/inbox/invites/accept", { origin: INBOX_ORIGIN, body: { code: codeOf(url), password: PASSWORD } }), 400, "invite_invalid");
    expect(await rowCounts()).toEqual(before);
  });

  test("a too-short password is 400 and the invite stays usable", async () => {
    await api.post("/api/v1/admin/members", { admin: true, body: { id: "short", name: "Short" } });
    const url = await inviteUrl("short", "short@team.example", "agent");
    expectError(await api.post("/api/v1/inbox/invites/accept", { origin: INBOX_ORIGIN, body: { code: codeOf(url), password: "short" } }), 400, "invalid_request");
    expect((await api.post("/api/v1/inbox/invites/accept", { origin: INBOX_ORIGIN, body: { code: codeOf(url), password: PASSWORD } })).status).toBe(200);
  });

  test("the operator invite: unknown member 404, an email another member has 409, bad role 400", async () => {
    expectError(await api.post("/api/v1/admin/members/ghost/invite", { admin: true, body: { email: "g@x.example", role: "agent" } }), 404, "member_not_found");
    const staff = await createStaff();
    await api.post("/api/v1/admin/members", { admin: true, body: { id: "dup", name: "Dup" } });
    expectError(await api.post("/api/v1/admin/members/dup/invite", { admin: true, body: { email: staff.email, role: "agent" } }), 409, "already_exists");
    expectError(await api.post("/api/v1/admin/members/dup/invite", { admin: true, body: { email: "d@x.example", role: "boss" } }), 400, "invalid_request");
    expectError(await api.post("/api/v1/admin/members/dup/invite", { body: { email: "d@x.example", role: "agent" } }), 401, "unauthorized");
  });
});

describe("deactivation", () => {
  test("ends every session at once and blocks sign-in", async () => {
    const owner = await createStaff("owner");
    const agent = await createStaff("agent");
    const response = await api.post(`/api/v1/inbox/members/${agent.id}/deactivate`, as(owner));
    expect(response.status).toBe(200);
    expect(response.json.result).toMatchObject({ id: agent.id, active: false });
    expectError(await api.get("/api/v1/inbox/session", as(agent)), 401, "unauthorized");
    expectError(await signIn(agent.email, PASSWORD), 401, "invalid_credentials");
  });

  test("the last owner cannot be deactivated or demoted", async () => {
    const prisma = await db();
    // Leave exactly one active owner.
    await prisma.member.updateMany({ where: { role: "owner" }, data: { deactivatedAt: new Date() } });
    const owner = await createStaff("owner");
    expectError(await api.post(`/api/v1/inbox/members/${owner.id}/deactivate`, as(owner)), 409, "last_owner");
    expectError(await api.patch(`/api/v1/inbox/members/${owner.id}`, as(owner, { body: { role: "agent" } })), 409, "last_owner");
    expect((await api.get("/api/v1/inbox/session", as(owner))).status).toBe(200);
  });
});

describe("sign-in attempts sent in parallel", () => {
  // Without a trusted proxy the client address is unknown: attempts count per account (and the
  // count across accounts, per client, is not kept: it would be one count for every client).
  const failuresLeft = async (email: string) =>
    (await limiterFor(rateLimitRule("sign_in_failures")).peek(`unknown-client|${email}`)).remaining;

  /** Takes `count` of the process's password-hashing places (running, then queued) until released. */
  function occupyPasswordWork(count: number) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const runs = Array.from({ length: count }, () => passwordWork.run(() => held));
    return async () => {
      release();
      await Promise.all(runs);
    };
  }

  test("30 wrong passwords at once for one account: at most 5 are checked, the rest 429; then even the right one is 429", async () => {
    await awayFromWindowEdge(15 * 60_000);
    const staff = await createStaff();
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(staff.email, `wrong ${i}`)));
    const checked = burst.filter((response) => response.status === 401);
    const refused = burst.filter((response) => response.status === 429);
    expect(checked.length).toBeGreaterThanOrEqual(1);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(checked.length + refused.length).toBe(30);
    for (const response of refused) {
      expectError(response, 429, "rate_limited");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Five checks in all, however they were sent.
    let failures = checked.length;
    while (failures < 5) {
      expectError(await signIn(staff.email, "wrong again"), 401, "invalid_credentials");
      failures += 1;
    }
    expectError(await signIn(staff.email, PASSWORD), 429, "rate_limited");
    expectError(await signIn(staff.email, "wrong"), 429, "rate_limited");
  });

  test("an attempt is counted before its password is checked", async () => {
    await awayFromWindowEdge(15 * 60_000);
    const staff = await createStaff();
    const release = occupyPasswordWork(passwordWork.limits.running);
    const attempt = signIn(staff.email, "wrong");
    await vi.waitFor(() => expect(passwordWork.load.queued).toBe(1), { timeout: 20_000 }); // waiting for its scrypt
    expect(await failuresLeft(staff.email)).toBe(4);
    await release();
    expectError(await attempt, 401, "invalid_credentials");
    expect(await failuresLeft(staff.email)).toBe(4);
  });

  test("a sign-in in flight when the member is deactivated leaves no session", async () => {
    await awayFromWindowEdge(15 * 60_000);
    const owner = await createStaff("owner", "Olive Owner");
    const staff = await createStaff();
    const release = occupyPasswordWork(passwordWork.limits.running);
    const attempt = signIn(staff.email, PASSWORD);
    // The member row is read, and the right password waits for its scrypt: deactivate now.
    await vi.waitFor(() => expect(passwordWork.load.queued).toBe(1), { timeout: 20_000 });
    expect((await api.post(`/api/v1/inbox/members/${staff.id}/deactivate`, as(owner))).status).toBe(200);
    await release();
    expectError(await attempt, 401, "invalid_credentials");
    expect(await (await db()).staffSession.count({ where: { memberId: staff.id } })).toBe(0);
  });

  test("a correct sign-in gives its reserved attempt back", async () => {
    await awayFromWindowEdge(15 * 60_000);
    const staff = await createStaff();
    for (let attempt = 1; attempt <= 4; attempt++) expectError(await signIn(staff.email, `wrong ${attempt}`), 401, "invalid_credentials");
    for (let attempt = 1; attempt <= 3; attempt++) expect((await signIn(staff.email, PASSWORD)).status).toBe(200);
    expect(await failuresLeft(staff.email)).toBe(1);
    expectError(await signIn(staff.email, "wrong 5"), 401, "invalid_credentials");
    expectError(await signIn(staff.email, PASSWORD), 429, "rate_limited");
  });

  test("password hashing is capped process-wide: beyond it 503 with Retry-After, no check and nothing counted", async () => {
    await awayFromWindowEdge(15 * 60_000);
    const staff = await createStaff();
    const { running, queued } = passwordWork.limits;
    const release = occupyPasswordWork(running + queued);
    let busy;
    try {
      expect(passwordWork.load).toEqual({ running, queued });
      busy = await signIn(staff.email, PASSWORD);
      const unknown = await signIn("nobody@team.example", PASSWORD);
      expectError(busy, 503, "service_unavailable");
      expectError(unknown, 503, "service_unavailable");
      expect(busy.json.message).toBe(unknown.json.message);
    } finally {
      await release();
    }
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(busy.headers.get("set-cookie")).toBeNull();
    expect(await failuresLeft(staff.email)).toBe(5);
    expect((await signIn(staff.email, PASSWORD)).status).toBe(200);
  });
});

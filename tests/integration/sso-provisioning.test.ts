import { afterAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { as, createStaff, INBOX_ORIGIN, PASSWORD } from "../support/inbox";
import { browseProvider, CLIENT_ID, CLIENT_SECRET, TestProvider } from "../support/oidc-provider";

// An SSO-only team: OIDC_AUTO_PROVISION=agent creates agents for verified emails nobody holds, and
// PASSWORD_SIGN_IN=off refuses passwords (invite links still set one, for the day SSO is turned off).

const provider = await new TestProvider().start();
process.env.OIDC_ISSUER = provider.issuer;
process.env.OIDC_CLIENT_ID = CLIENT_ID;
process.env.OIDC_CLIENT_SECRET = CLIENT_SECRET;
process.env.OIDC_AUTO_PROVISION = "agent";
process.env.PASSWORD_SIGN_IN = "off";
afterAll(() => provider.stop());

async function signInWithSso(account: string) {
  const start = await api.get("/api/v1/inbox/sso");
  provider.signInAs = account;
  const callback = await browseProvider(start.headers.get("location")!);
  const finished = await api.get(callback.pathname + callback.search, { headers: { Cookie: start.headers.get("set-cookie")!.split(";")[0]! } });
  const session = finished.headers.getSetCookie().find((c) => c.startsWith("parley_session=ps_"));
  return { location: finished.headers.get("location"), cookie: session?.split(";")[0] ?? null };
}

describe("single sign-on with auto-provisioning, passwords off", { timeout: 90_000 }, () => {
  test("a verified email nobody holds becomes an agent, signed in; an unverified one does not", async () => {
    provider.accounts.set("idp-nia", { email: "nia@team.example", email_verified: true, name: "Nia Newcomer" });
    const first = await signInWithSso("idp-nia");
    expect(first.location).toBe("/inbox");
    const me = (await api.get("/api/v1/inbox/session", as(null, { headers: { Cookie: first.cookie! } }))).json.result;
    expect(me).toMatchObject({ name: "Nia Newcomer", email: "nia@team.example", role: "agent" });
    // The same account next time: the same member, not a second one.
    const again = await signInWithSso("idp-nia");
    expect((await api.get("/api/v1/inbox/session", as(null, { headers: { Cookie: again.cookie! } }))).json.result.id).toBe(me.id);
    expect(await (await db()).member.count({ where: { email: "nia@team.example" } })).toBe(1);

    provider.accounts.set("idp-ursula", { email: "ursula@team.example", email_verified: false });
    expect(await signInWithSso("idp-ursula")).toEqual({ location: "/inbox/sign-in?sso=email_unverified", cookie: null });
    expect(await (await db()).member.findUnique({ where: { email: "ursula@team.example" } })).toBeNull();
  });

  test("an email with a pending invite is left to that invite: no agent is made in its place", async () => {
    const owner = await createStaff("owner", "Oren Owner");
    expect((await api.post("/api/v1/inbox/members/invites", as(owner, { body: { email: "vip@team.example", role: "owner", name: "Vip" } }))).status).toBe(201);
    provider.accounts.set("idp-vip", { email: "vip@team.example", email_verified: true });
    expect(await signInWithSso("idp-vip")).toEqual({ location: "/inbox/sign-in?sso=no_member", cookie: null });
    expect(await (await db()).member.findUnique({ where: { email: "vip@team.example" } })).toBeNull();
  });

  test("password sign-in answers 403 and makes no session, even with the right password", async () => {
    const staff = await createStaff("agent", "Pat Password");
    const refused = await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: staff.email, password: PASSWORD } });
    expect(refused.status).toBe(403);
    expect(refused.json.result.code).toBe("forbidden");
    expect(refused.headers.get("set-cookie")).toBeNull();
    // Audited like any failed sign-in.
    const [row] = await (await db()).auditEvent.findMany({ where: { action: "staff.sign_in_failed" }, orderBy: { at: "desc" }, take: 1 });
    expect(row).toMatchObject({ actor: "anonymous", target: `member:${staff.id}`, details: { method: "password", reason: "password_sign_in_off" } });
    const stranger = await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: "nobody@team.example", password: PASSWORD } });
    expect(stranger.status).toBe(403);
    const [again] = await (await db()).auditEvent.findMany({ where: { action: "staff.sign_in_failed" }, orderBy: { at: "desc" }, take: 1 });
    expect(again!.target).toMatch(/^email_hash:/);
    expect(again!.id).not.toBe(row!.id);
  });
});

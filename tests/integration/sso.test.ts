import { afterAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { as, createStaff, INBOX_ORIGIN, PASSWORD } from "../support/inbox";
import { browseProvider, CLIENT_ID, CLIENT_SECRET, TestProvider } from "../support/oidc-provider";

// Single sign-on against a real OpenID Connect provider (decisions.md, round 3): code flow with
// PKCE, state and nonce; existing members only, by verified email; a pending invite is never
// claimed; no account is created (this file runs without OIDC_AUTO_PROVISION).

const provider = await new TestProvider().start();
process.env.OIDC_ISSUER = provider.issuer;
process.env.OIDC_CLIENT_ID = CLIENT_ID;
process.env.OIDC_CLIENT_SECRET = CLIENT_SECRET;
afterAll(() => provider.stop());

interface Outcome {
  location: string;
  sessionCookie: string | null;
}

/** The whole round trip as a browser makes it, signed in at the provider as `account`. */
async function signInWithSso(account: string, tamper: (callback: URL, attemptCookie: string) => [URL, string] = (c, a) => [c, a]): Promise<Outcome> {
  const start = await api.get("/api/v1/inbox/sso");
  expect(start.status).toBe(302);
  const attemptCookie = start.headers.get("set-cookie")!.split(";")[0]!;
  provider.signInAs = account;
  const [callback, cookie] = tamper(await browseProvider(start.headers.get("location")!), attemptCookie);
  const finished = await api.get(callback.pathname + callback.search, { headers: { Cookie: cookie } });
  expect(finished.status).toBe(302);
  const session = finished.headers.getSetCookie().find((c) => c.startsWith("parley_session=ps_"));
  return { location: finished.headers.get("location")!, sessionCookie: session ? session.split(";")[0]! : null };
}

const signedInMember = async (cookie: string) => (await api.get("/api/v1/inbox/session", as(null, { headers: { Cookie: cookie } }))).json.result?.id;
const memberCount = async () => (await db()).member.count();

// Each round trip hashes nothing, but creating members does (scrypt): generous on a busy machine.
describe("single sign-on", { timeout: 90_000 }, () => {
  test("the authorization request uses PKCE (S256), a state and a nonce; the attempt cookie is sealed", async () => {
    const start = await api.get("/api/v1/inbox/sso");
    const url = new URL(start.headers.get("location")!);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(url.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const cookie = start.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^parley_sso=sealed:v1:/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).not.toContain(url.searchParams.get("state")!);
  });

  test("a known member whose email the provider verified signs in, and is linked to that account", async () => {
    const staff = await createStaff("agent", "Sam Sso");
    provider.accounts.set("idp-sam", { email: staff.email.toUpperCase(), email_verified: true, name: "Sam" });
    const outcome = await signInWithSso("idp-sam");
    expect(outcome.location).toBe("/inbox");
    expect(await signedInMember(outcome.sessionCookie!)).toBe(staff.id);
    const member = await (await db()).member.findUniqueOrThrow({ where: { id: staff.id } });
    expect(member.ssoSubject).toBe(`${provider.issuer} idp-sam`);
    // Linked: the next sign-in finds the member by that account, even after the email changed there.
    provider.accounts.set("idp-sam", { email: "sam@elsewhere.example", email_verified: true });
    expect(await signedInMember((await signInWithSso("idp-sam")).sessionCookie!)).toBe(staff.id);
    // And the password still works (PASSWORD_SIGN_IN is on by default).
    const password = await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: staff.email, password: PASSWORD } });
    expect(password.status).toBe(200);
  });

  test("an unknown email, an unverified email, a deactivated member and a member linked elsewhere are refused", async () => {
    const before = await memberCount();
    provider.accounts.set("idp-stranger", { email: "stranger@team.example", email_verified: true });
    expect(await signInWithSso("idp-stranger")).toEqual({ location: "/inbox/sign-in?sso=no_member", sessionCookie: null });

    const unverified = await createStaff("agent", "Una Verified");
    provider.accounts.set("idp-una", { email: unverified.email, email_verified: false });
    expect(await signInWithSso("idp-una")).toEqual({ location: "/inbox/sign-in?sso=email_unverified", sessionCookie: null });

    const owner = await createStaff("owner", "Olga Owner");
    const gone = await createStaff("agent", "Dee Activated");
    expect((await api.post(`/api/v1/inbox/members/${gone.id}/deactivate`, as(owner))).status).toBe(200);
    provider.accounts.set("idp-dee", { email: gone.email, email_verified: true });
    expect(await signInWithSso("idp-dee")).toEqual({ location: "/inbox/sign-in?sso=no_member", sessionCookie: null });

    const linked = await createStaff("agent", "Lin Ked");
    provider.accounts.set("idp-lin", { email: linked.email, email_verified: true });
    expect((await signInWithSso("idp-lin")).sessionCookie).not.toBeNull();
    provider.accounts.set("idp-impostor", { email: linked.email, email_verified: true });
    expect(await signInWithSso("idp-impostor")).toEqual({ location: "/inbox/sign-in?sso=account_mismatch", sessionCookie: null });

    expect(await memberCount()).toBe(before + 4);
  });

  test("a pending invite is never claimed by single sign-on", async () => {
    const owner = await createStaff("owner", "Olive Owner");
    const invited = "new.hire@team.example";
    const invite = await api.post("/api/v1/inbox/members/invites", as(owner, { body: { email: invited, role: "owner", name: "New Hire" } }));
    expect(invite.status).toBe(201);
    provider.accounts.set("idp-new-hire", { email: invited, email_verified: true });
    expect(await signInWithSso("idp-new-hire")).toEqual({ location: "/inbox/sign-in?sso=no_member", sessionCookie: null });
    expect(await (await db()).member.findUnique({ where: { email: invited } })).toBeNull();
  });

  test("a tampered state, a missing, forged or altered attempt cookie are refused before the code is used", async () => {
    const staff = await createStaff("agent", "Tam Pered");
    provider.accounts.set("idp-tam", { email: staff.email, email_verified: true });
    const refused = { location: "/inbox/sign-in?sso=attempt_invalid", sessionCookie: null };
    const withState = (callback: URL, state: string) => {
      const changed = new URL(callback);
      changed.searchParams.set("state", state);
      return changed;
    };
    expect(await signInWithSso("idp-tam", (c, a) => [withState(c, `${c.searchParams.get("state")}x`), a])).toEqual(refused);
    expect(await signInWithSso("idp-tam", (c) => [c, ""])).toEqual(refused);
    const forged = `parley_sso=${encodeURIComponent(JSON.stringify({ state: "s", nonce: "n", verifier: "v", expiresAt: Date.now() + 60_000 }))}`;
    expect(await signInWithSso("idp-tam", (c) => [withState(c, "s"), forged])).toEqual(refused);
    expect(await signInWithSso("idp-tam", (c, a) => [c, `${a.slice(0, -2)}AA`])).toEqual(refused);
    // Another attempt's cookie does not fit this callback's state.
    const other = (await api.get("/api/v1/inbox/sso")).headers.get("set-cookie")!.split(";")[0]!;
    expect(await signInWithSso("idp-tam", (c) => [c, other])).toEqual(refused);
  });

  test("the provider's error (the visitor cancelled) is refused, and no session is made", async () => {
    const start = await api.get("/api/v1/inbox/sso");
    const cookie = start.headers.get("set-cookie")!.split(";")[0]!;
    const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
    const finished = await api.get(`/api/v1/inbox/sso/callback?error=access_denied&state=${state}`, { headers: { Cookie: cookie } });
    expect(finished.status).toBe(302);
    expect(finished.headers.get("location")).toBe("/inbox/sign-in?sso=provider_failed");
    expect(finished.headers.getSetCookie().some((c) => c.startsWith("parley_session=ps_"))).toBe(false);
  });

  test("the audit log has each sign-in by single sign-on, the link it made once, and each refusal", async () => {
    const staff = await createStaff("agent", "Audie Sso");
    provider.accounts.set("idp-audie", { email: staff.email, email_verified: true });
    await signInWithSso("idp-audie");
    await signInWithSso("idp-audie");
    const mine = await api.get(`/api/v1/admin/audit?actor=member:${staff.id}`, { admin: true });
    const actions = mine.json.result.items.map((row: { action: string; details: { method?: string } }) => `${row.action} ${row.details.method ?? ""}`.trim());
    expect(actions.filter((action: string) => action === "staff.sign_in sso")).toHaveLength(2);
    expect(actions.filter((action: string) => action === "sso.linked")).toHaveLength(1);
    provider.accounts.set("idp-unknown", { email: "unknown.person@nowhere.example", email_verified: true });
    await signInWithSso("idp-unknown");
    const failed = await api.get("/api/v1/admin/audit?action=staff.sign_in_failed&limit=1", { admin: true });
    expect(failed.json.result.items[0]).toMatchObject({ actor: "anonymous", target: null, details: { method: "sso", reason: "no_member" } });
  });
});

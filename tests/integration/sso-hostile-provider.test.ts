import { generateKeyPair, SignJWT } from "jose";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { createStaff } from "../support/inbox";
import { browseProvider, CLIENT_ID, CLIENT_SECRET, PUBLISHED_KID, TestProvider, type IdTokenForgery } from "../support/oidc-provider";

// Single sign-on against a hostile provider (issue 38, defects 5-7): a token endpoint that answers
// with an ID token of its own making, claims the database cannot hold, and emails that Unicode
// case mapping turns into another member's address. Each is refused with the provider_failed (or
// no_member) redirect, and no session is made.

const provider = await new TestProvider().start();
process.env.OIDC_ISSUER = provider.issuer;
process.env.OIDC_CLIENT_ID = CLIENT_ID;
process.env.OIDC_CLIENT_SECRET = CLIENT_SECRET;
afterAll(() => provider.stop());
afterEach(() => {
  provider.forgeIdToken = null;
});

interface Outcome {
  location: string;
  sessionCookie: string | null;
}

async function signInWithSso(account: string): Promise<Outcome> {
  const start = await api.get("/api/v1/inbox/sso");
  expect(start.status).toBe(302);
  const attemptCookie = start.headers.get("set-cookie")!.split(";")[0]!;
  provider.signInAs = account;
  const callback = await browseProvider(start.headers.get("location")!);
  const finished = await api.get(callback.pathname + callback.search, { headers: { Cookie: attemptCookie } });
  expect(finished.status).toBe(302);
  const session = finished.headers.getSetCookie().find((c) => c.startsWith("parley_session=ps_"));
  return { location: finished.headers.get("location")!, sessionCookie: session ? session.split(";")[0]! : null };
}

const refused = (reason: string): Outcome => ({ location: `/inbox/sign-in?sso=${reason}`, sessionCookie: null });
// createStaff signs the member in once (its invite is accepted): only that session may exist.
const sessionsOf = async (memberId: string) => (await db()).staffSession.count({ where: { memberId } });

/** The provider's claims as issued, re-signed with `key` under `kid`, with `changes` applied. */
const resigned = (key: CryptoKey, kid: string, changes: Record<string, unknown> = {}): IdTokenForgery => async (claims) =>
  new SignJWT({ ...claims, ...changes }).setProtectedHeader({ alg: "RS256", kid, typ: "JWT" }).sign(key);

const attackerKey = (await generateKeyPair("RS256")).privateKey;

describe("Rocket.Chat CVE-2026-55759, OIDC Core 3.1.3.7: every ID token check is on, against a hostile provider", { timeout: 90_000 }, () => {
  test("the hostile token endpoint works: a token re-signed with the provider's own published key signs in", async () => {
    const staff = await createStaff("agent", "Res Igned");
    provider.accounts.set("idp-resigned", { email: staff.email, email_verified: true });
    provider.forgeIdToken = resigned(provider.signingKey, PUBLISHED_KID);
    expect((await signInWithSso("idp-resigned")).location).toBe("/inbox");
  });

  test("an ID token signed by a key the provider does not publish (under the published kid) is refused", async () => {
    const staff = await createStaff("agent", "Una Published");
    provider.accounts.set("idp-unpublished", { email: staff.email, email_verified: true });
    provider.forgeIdToken = resigned(attackerKey, PUBLISHED_KID);
    expect(await signInWithSso("idp-unpublished")).toEqual(refused("provider_failed"));
    expect(await sessionsOf(staff.id)).toBe(1);
    expect((await (await db()).member.findUniqueOrThrow({ where: { id: staff.id } })).ssoSubject).toBeNull();
  });

  test("an ID token whose kid the provider does not publish is refused", async () => {
    const staff = await createStaff("agent", "Wrong Kid");
    provider.accounts.set("idp-wrong-kid", { email: staff.email, email_verified: true });
    provider.forgeIdToken = resigned(attackerKey, "attacker-key");
    expect(await signInWithSso("idp-wrong-kid")).toEqual(refused("provider_failed"));
    // The provider's real key under a kid it does not publish: still no key to check it with.
    provider.forgeIdToken = resigned(provider.signingKey, "not-published");
    expect(await signInWithSso("idp-wrong-kid")).toEqual(refused("provider_failed"));
    expect(await sessionsOf(staff.id)).toBe(1);
  });

  test("a NUL byte in sub or email is refused with provider_failed, not a 500", async () => {
    const staff = await createStaff("agent", "Nul Byte");
    provider.accounts.set("idp-nul", { email: staff.email, email_verified: true });
    provider.forgeIdToken = resigned(provider.signingKey, PUBLISHED_KID, { sub: "idp-\u0000nul" });
    expect(await signInWithSso("idp-nul")).toEqual(refused("provider_failed"));
    provider.forgeIdToken = resigned(provider.signingKey, PUBLISHED_KID, { email: `${staff.email}\u0000`, email_verified: true });
    expect(await signInWithSso("idp-nul")).toEqual(refused("provider_failed"));
    provider.forgeIdToken = resigned(provider.signingKey, PUBLISHED_KID, { sub: "idp-\ud800" });
    expect(await signInWithSso("idp-nul")).toEqual(refused("provider_failed"));
    expect(await sessionsOf(staff.id)).toBe(1);
  });
});

describe("GitHub password reset, 2019 (Unicode case mapping): single sign-on", { timeout: 90_000 }, () => {
  test("a verified email with a Kelvin sign or a dotless ı never signs in as the member whose address it folds onto", async () => {
    const kelvin = await createStaff("agent", "Kelvin Member");
    await (await db()).member.update({ where: { id: kelvin.id }, data: { email: "kelvin@team.example" } });
    provider.accounts.set("idp-kelvin-sign", { email: "\u212Aelvin@team.example", email_verified: true });
    expect(await signInWithSso("idp-kelvin-sign")).toEqual(refused("no_member"));
    provider.accounts.set("idp-dotless", { email: "kelv\u0131n@team.example", email_verified: true });
    expect(await signInWithSso("idp-dotless")).toEqual(refused("no_member"));
    provider.accounts.set("idp-upper-kelvin", { email: "\u212AELVIN@TEAM.EXAMPLE", email_verified: true });
    expect(await signInWithSso("idp-upper-kelvin")).toEqual(refused("no_member"));
    expect(await sessionsOf(kelvin.id)).toBe(1);
    expect((await (await db()).member.findUniqueOrThrow({ where: { id: kelvin.id } })).ssoSubject).toBeNull();
    // The member's own address, in any ASCII case, still signs in.
    provider.accounts.set("idp-kelvin", { email: "KELVIN@team.example", email_verified: true });
    expect((await signInWithSso("idp-kelvin")).location).toBe("/inbox");
  });
});

import { randomBytes } from "node:crypto";
import * as oidc from "openid-client";
import { z } from "zod";
import { clientId, displayName, text } from "../core/validation/strings";
import { memberEmailKey } from "../core/validation/member-email";
import { db } from "../db/client";
import { cookieValue } from "../core/cookies";
import { env, serviceOrigin } from "../core/env";
import { log } from "../core/log";
import { processSingleton } from "../core/process-registry.mjs";
import { isSealed, openSecret, sealSecret, type SecretPlace } from "../secrets/seal";
import { memberIdFor } from "./invites";
import { hashPassword } from "./passwords";
import { createSession } from "./sessions";
import { canSignIn } from "../members/can-sign-in";

// Single sign-on by OpenID Connect (decisions.md, round 3), with `openid-client` (the certified
// client by the author of `jose`): the authorization code flow with PKCE (S256), state and nonce.
// The three values travel in a short-lived cookie sealed with the service's key (lib/secrets), so a
// browser can neither read nor alter them and no row is kept per attempt; the callback only accepts
// the state it finds there, and the provider's code works once.
//
// Who may come in: the member already linked to this provider account; else the member whose email
// the provider says is verified, if that member can sign in and is linked to no other account (the
// link is made then). A pending invite is never claimed: an invite's member does not exist (or has
// no sign-in) until the invite is accepted with its link. Nobody else, unless
// OIDC_AUTO_PROVISION=agent creates an agent for a verified email that no member and no pending
// invite holds.

export const SSO_COOKIE = "parley_sso";
export const SSO_CALLBACK_PATH = "/api/v1/inbox/sso/callback";
const ATTEMPT_MS = 10 * 60 * 1000;
const ATTEMPT_PLACE: SecretPlace = { table: "cookies", column: SSO_COOKIE, id: "sign-in attempt" };

/** Why a sign-in through the provider was refused; the sign-in page explains each. */
export type SsoRefusal = "attempt_invalid" | "provider_failed" | "email_unverified" | "no_member" | "account_mismatch";

export class SsoRefused extends Error {
  constructor(readonly reason: SsoRefusal) {
    super(`single sign-on refused: ${reason}`);
  }
}

export const ssoConfigured = () => Boolean(env().OIDC_ISSUER);
export const passwordSignInAllowed = () => env().PASSWORD_SIGN_IN === "on";

const callbackUrl = () => new URL(SSO_CALLBACK_PATH, serviceOrigin()).href;

/** The provider's metadata, discovered once per process (again after a failed discovery). */
function providerConfig(): Promise<oidc.Configuration> {
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } = env();
  if (!OIDC_ISSUER || !OIDC_CLIENT_ID || !OIDC_CLIENT_SECRET) throw new Error("single sign-on is not configured");
  const cache = processSingleton("oidc provider configs", () => new Map<string, Promise<oidc.Configuration>>());
  const key = `${OIDC_ISSUER} ${OIDC_CLIENT_ID}`;
  let config = cache.get(key);
  if (!config) {
    const issuer = new URL(OIDC_ISSUER);
    // The environment allows http only for a provider on this machine (lib/core/env-schema.mjs).
    const insecure = issuer.protocol === "http:" ? [oidc.allowInsecureRequests] : [];
    // The ID token's signature is checked against the provider's published keys (its JWKS, fetched
    // and cached by openid-client), not only trusted because it came over TLS: OIDC Core allows
    // that, but a token endpoint that is not the provider's (a mix-up, a compromised proxy) must not
    // be able to sign anyone in (threats.md, Rocket.Chat CVE-2026-55759).
    const execute = [...insecure, oidc.enableNonRepudiationChecks];
    config = oidc.discovery(issuer, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, undefined, { execute });
    config.catch(() => cache.delete(key));
    cache.set(key, config);
  }
  return config;
}

interface Attempt {
  state: string;
  nonce: string;
  verifier: string;
  expiresAt: number;
}

/** Where to send the browser to sign in at the provider, and the cookie that remembers the attempt. */
export async function beginSso(): Promise<{ location: string; cookie: string }> {
  const config = await providerConfig();
  const attempt: Attempt = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier: oidc.randomPKCECodeVerifier(),
    expiresAt: Date.now() + ATTEMPT_MS,
  };
  const location = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(),
    scope: "openid email profile",
    code_challenge: await oidc.calculatePKCECodeChallenge(attempt.verifier),
    code_challenge_method: "S256",
    state: attempt.state,
    nonce: attempt.nonce,
  });
  return { location: location.href, cookie: attemptCookie(sealSecret(JSON.stringify(attempt), ATTEMPT_PLACE)) };
}

/** The cookie holding a sealed attempt (null: the one that clears it). */
export function attemptCookie(sealed: string | null): string {
  const secure = serviceOrigin().startsWith("https:") ? "; Secure" : "";
  // Lax: the provider's redirect back is a top-level GET navigation, which carries it.
  return `${SSO_COOKIE}=${sealed ?? ""}; Path=${SSO_CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=${sealed ? ATTEMPT_MS / 1000 : 0}${secure}`;
}

function readAttempt(cookieHeader: string | null): Attempt {
  const sealed = cookieValue(cookieHeader, SSO_COOKIE);
  // openSecret passes unsealed values through (stored before sealing existed): a cookie must be sealed.
  if (!sealed || !isSealed(sealed)) throw new SsoRefused("attempt_invalid");
  let attempt: Attempt;
  try {
    attempt = JSON.parse(openSecret(sealed, ATTEMPT_PLACE)) as Attempt;
  } catch {
    throw new SsoRefused("attempt_invalid");
  }
  if (!(attempt.expiresAt > Date.now())) throw new SsoRefused("attempt_invalid");
  return attempt;
}

interface ProviderAccount {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** The provider's answer at the callback (the query of `search`), checked against the attempt. */
async function providerAccount(search: string, attempt: Attempt): Promise<ProviderAccount> {
  const config = await providerConfig();
  const current = new URL(callbackUrl());
  current.search = search;
  let claims: oidc.IDToken;
  let accessToken: string;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: attempt.verifier,
      expectedState: attempt.state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims()!;
    accessToken = tokens.access_token;
  } catch (error) {
    // The provider's error names no secret (state, code and tokens are not in its message).
    log.warn("sso_provider_failed", { error: error instanceof Error ? error.message : String(error) });
    throw new SsoRefused("provider_failed");
  }
  let email = typeof claims.email === "string" ? claims.email : null;
  let verified = claims.email_verified;
  let name = typeof claims.name === "string" ? claims.name : null;
  if (email === null || verified === undefined) {
    const info = await oidc.fetchUserInfo(config, accessToken, claims.sub).catch(() => null);
    email = typeof info?.email === "string" ? info.email : email;
    verified = info?.email_verified ?? verified;
    name = name ?? (typeof info?.name === "string" ? info.name : null);
  }
  // Before any lookup: a string the database cannot hold (U+0000) would fail the query (a 500).
  const checked = providerClaims.safeParse({ sub: claims.sub, email, name });
  if (!checked.success) {
    log.warn("sso_provider_failed", { error: "the provider's claims are not storable strings" });
    throw new SsoRefused("provider_failed");
  }
  return {
    subject: `${config.serverMetadata().issuer} ${checked.data.sub}`,
    // An address that is not one a member could hold (an ASCII look-alike, lib/core/validation/member-email.ts) matches no member.
    email: checked.data.email === null ? null : memberEmailKey(checked.data.email),
    emailVerified: verified === true,
    name: checked.data.name === null ? null : (displayName(80).safeParse(checked.data.name).data ?? null),
  };
}

const providerClaims = z.object({ sub: clientId(255), email: text(320).nullable(), name: text(1000).nullable() });

/** Finishes a sign-in at the callback: the member signed in and a new session token, or SsoRefused. */
export async function finishSso(search: string, cookieHeader: string | null): Promise<{ memberId: string; token: string; linked: boolean }> {
  const attempt = readAttempt(cookieHeader);
  // The attempt this browser began, or none: checked before the provider's code is used.
  if (new URLSearchParams(search).get("state") !== attempt.state) throw new SsoRefused("attempt_invalid");
  const account = await providerAccount(search, attempt);
  const { memberId, linked } = await memberFor(account);
  const token = await createSession(memberId);
  if (token === null) throw new SsoRefused("no_member"); // deactivated meanwhile
  return { memberId, token, linked };
}

async function memberFor(account: ProviderAccount): Promise<{ memberId: string; linked: boolean }> {
  const prisma = await db();
  const select = { id: true, role: true, passwordHash: true, deactivatedAt: true, email: true, ssoSubject: true } as const;
  const linked = await prisma.member.findUnique({ where: { ssoSubject: account.subject }, select });
  if (linked) {
    if (!canSignIn(linked)) throw new SsoRefused("no_member");
    return { memberId: linked.id, linked: false };
  }
  if (!account.email) throw new SsoRefused("no_member");
  if (!account.emailVerified) throw new SsoRefused("email_unverified");
  const member = await prisma.member.findUnique({ where: { email: account.email }, select });
  if (member) {
    if (!canSignIn(member)) throw new SsoRefused("no_member");
    if (member.ssoSubject !== null) throw new SsoRefused("account_mismatch");
    const { count } = await prisma.member.updateMany({ where: { id: member.id, ssoSubject: null }, data: { ssoSubject: account.subject } });
    if (count !== 1) throw new SsoRefused("account_mismatch");
    return { memberId: member.id, linked: true };
  }
  if (env().OIDC_AUTO_PROVISION !== "agent") throw new SsoRefused("no_member");
  return { memberId: await provisionAgent(account, account.email), linked: true };
}

/**
 * A new agent for a verified email nobody holds. Its password is random and never shown (the
 * inbox's sign-in notion needs one; an invite link can set a real one), and an email with a
 * pending invite is left to that invite.
 */
async function provisionAgent(account: ProviderAccount, email: string): Promise<string> {
  const prisma = await db();
  const invited = await prisma.staffInvite.findFirst({ where: { email, usedAt: null, expiresAt: { gt: new Date() } }, select: { id: true } });
  if (invited) throw new SsoRefused("no_member");
  const name = (account.name ?? email.split("@")[0]!).slice(0, 80);
  const id = memberIdFor(name);
  const passwordHash = await hashPassword(randomBytes(32).toString("base64url"));
  await prisma.member.create({ data: { id, name, email, role: "agent", passwordHash, ssoSubject: account.subject } });
  return id;
}

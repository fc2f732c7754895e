import { db } from "../db/client";
import { foldEmailCase } from "../core/validation/member-email";
import { AppError } from "../core/errors";
import { log } from "../core/log";
import type { Limiter } from "../rate-limits/limiter";
import { clientAddress, clientKey, limiterFor, reportFailure } from "../rate-limits/enforce-rate-limit";
import { recordAuditAfter } from "../audit/record";
import { emailTarget } from "../audit/email-target";
import { rateLimitRule, type RateLimitName } from "../rate-limits/limits";
import { verifyPassword } from "./passwords";
import { createSession } from "./sessions";
import { canSignIn } from "../members/can-sign-in";
import { passwordSignInAllowed } from "./sso";
import { processSingleton } from "../core/process-registry.mjs";

// Sign-in: one answer (401 invalid_credentials) for an unknown email, a wrong password and a
// member who cannot sign in, each after one scrypt verification. Failures are counted per account
// *and* client, so a stranger's guesses never lock the member out from their own client: at most 5
// for the same email from the same client within 15 minutes, and 20 from one client across every
// account (password spraying); past either, 429 before any check. The client is the address
// lib/rate-limits/client-ip.ts trusts (the TCP peer under npm start, else the proxies' or the
// platform's); where none can be known (`next start`/`next dev` without TRUSTED_PROXY_HOPS), every
// client looks alike, so failures count per account alone (guessing stays capped; a stranger can
// then hold an account's sign-in for 15 minutes: docs/security.md, "Sign-in throttling").
//
// Sent in parallel, attempts must not all be checked before the first failure is counted, so:
// - each attempt reserves its place in the limit *before* the password is checked (the limiter's
//   count is atomic, also across instances in Redis) and gives it back when it was not a failure
//   (a correct password, or no check at all: hashing busy, database down);
// - one check at a time per email and IP in this process: a second attempt while one is being
//   checked gets 429 at once, with no scrypt (and is not counted: it checked nothing);
// - hashing itself is capped process-wide (passwords.ts): 503 beyond it.
// A limiter that cannot be reached lets attempts through (fail open, logged); the last two still hold.
//
// Every refusal is audited (`staff.sign_in_failed`), naming the member whose email was typed, or
// else only the address's keyed hash (lib/audit/email-target.ts): what was typed may be anyone's
// address, or a password typed into the email box.

const invalidCredentials = () => new AppError("invalid_credentials", "The email or password is not right.");
const tooManyFailures = (retryAfter: number) =>
  new AppError("rate_limited", "Too many failed sign-ins. Please wait and try again.", { retryAfter });

const inFlight = processSingleton("sign-ins in flight", () => new Set<string>());

export async function signIn(input: { email: string; password: string }, request: Request) {
  const email = foldEmailCase(input.email);
  if (!passwordSignInAllowed()) {
    const member = await (await db()).member.findUnique({ where: { email }, select: { id: true } });
    await auditFailure(member, email, clientAddress(request), "password_sign_in_off");
    throw new AppError("forbidden", "Password sign-in is turned off here: sign in with single sign-on.");
  }
  const client = clientKey(request);
  const key = `${client ?? "unknown-client"}|${email}`; // unknown: per account only
  if (inFlight.has(key)) throw new AppError("rate_limited", "A sign-in for this email is already being checked. Please wait and try again.", { retryAfter: 1 });
  inFlight.add(key);
  try {
    return await checkOnce(email, input.password, failureCounts(key, client), clientAddress(request));
  } finally {
    inFlight.delete(key);
  }
}

interface FailureCount {
  limiter: Limiter;
  name: RateLimitName;
  key: string;
}

/** Where a failure counts: this client on this account, and (when known) this client on every account. */
function failureCounts(accountKey: string, client: string | null): FailureCount[] {
  const count = (name: RateLimitName, key: string) => ({ limiter: limiterFor(rateLimitRule(name)), name, key });
  return [count("sign_in_failures", accountKey), ...(client === null ? [] : [count("sign_in_client_failures", client)])];
}

async function checkOnce(email: string, password: string, counts: FailureCount[], ip: string | null) {
  const reserved = await reserveAttempt(counts);
  let failed = false;
  try {
    const member = await (await db()).member.findUnique({
      where: { email },
      select: { id: true, email: true, role: true, passwordHash: true, deactivatedAt: true },
    });
    const passwordMatches = await verifyPassword(password, member?.passwordHash ?? null);
    if (!member || !passwordMatches || !canSignIn(member)) {
      failed = true; // the reservation stays: it is this failure's count
      log.info("sign_in_failed");
      await auditFailure(member, email, ip, "invalid_credentials");
      throw invalidCredentials();
    }
    const token = await createSession(member.id);
    if (token === null) {
      failed = true; // deactivated while the password was being checked: as any member who cannot sign in
      await auditFailure(member, email, ip, "invalid_credentials");
      throw invalidCredentials();
    }
    await recordAuditAfter({ actor: `member:${member.id}`, action: "staff.sign_in", target: `member:${member.id}`, ip, details: { method: "password" } });
    return { memberId: member.id, token };
  } finally {
    if (!failed) await releaseAttempt(reserved);
  }
}

const auditFailure = (member: { id: string } | null, email: string, ip: string | null, reason: string) =>
  recordAuditAfter({
    actor: "anonymous",
    action: "staff.sign_in_failed",
    target: member ? `member:${member.id}` : emailTarget(email),
    ip,
    details: { method: "password", reason },
  });

/**
 * Counts the attempt in each count; the counts it took a place in (a limiter that cannot be reached
 * is skipped: fail open). Throws 429 when one is spent, after giving back the places already taken.
 */
async function reserveAttempt(counts: FailureCount[]): Promise<FailureCount[]> {
  const reserved: FailureCount[] = [];
  for (const count of counts) {
    let outcome;
    try {
      outcome = await count.limiter.limit(count.key);
    } catch (error) {
      reportFailure(count.name, error);
      continue;
    }
    if (!outcome.success) {
      await releaseAttempt(reserved);
      throw tooManyFailures(Math.max(1, Math.ceil((outcome.reset - Date.now()) / 1000)));
    }
    reserved.push(count);
  }
  return reserved;
}

async function releaseAttempt(counts: FailureCount[]): Promise<void> {
  for (const count of counts) {
    try {
      await count.limiter.release(count.key);
    } catch (error) {
      reportFailure(count.name, error); // the attempt stays counted: errs on the safe side
    }
  }
}

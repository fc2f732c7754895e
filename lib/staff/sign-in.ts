import { db } from "../db/client";
import { AppError } from "../core/errors";
import { log } from "../core/log";
import type { Limiter } from "../rate-limits/limiter";
import { clientAddress, clientKey, limiterFor, reportFailure } from "../rate-limits/enforce-rate-limit";
import { recordAuditAfter } from "../audit/record";
import { emailTarget } from "../audit/email-target";
import { rateLimitRule } from "../rate-limits/limits";
import { verifyPassword } from "./passwords";
import { createSession } from "./sessions";
import { canSignIn } from "../members/can-sign-in";
import { passwordSignInAllowed } from "./sso";
import { processSingleton } from "../core/process-registry.mjs";

// Sign-in: one answer (401 invalid_credentials) for an unknown email, a wrong password and a
// member who cannot sign in, each after one scrypt verification. At most 5 failures for the same
// email from the same client IP within 15 minutes; then 429 before any check.
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
  const email = input.email.toLowerCase();
  if (!passwordSignInAllowed()) {
    const member = await (await db()).member.findUnique({ where: { email }, select: { id: true } });
    await auditFailure(member, email, clientAddress(request), "password_sign_in_off");
    throw new AppError("forbidden", "Password sign-in is turned off here: sign in with single sign-on.");
  }
  const key = `${clientKey(request) ?? "unknown-client"}|${email}`; // unknown: per account only
  if (inFlight.has(key)) throw new AppError("rate_limited", "A sign-in for this email is already being checked. Please wait and try again.", { retryAfter: 1 });
  inFlight.add(key);
  try {
    return await checkOnce(email, input.password, key, clientAddress(request));
  } finally {
    inFlight.delete(key);
  }
}

async function checkOnce(email: string, password: string, key: string, ip: string | null) {
  const limiter = limiterFor(rateLimitRule("sign_in_failures"));
  const reserved = await reserveAttempt(limiter, key);
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
    await recordAuditAfter({ actor: `member:${member.id}`, action: "staff.sign_in", target: `member:${member.id}`, ip, details: { method: "password" } });
    return { memberId: member.id, token };
  } finally {
    if (reserved && !failed) await releaseAttempt(limiter, key);
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

/** Counts the attempt; false when the limiter cannot be reached (fail open). Throws 429 when spent. */
async function reserveAttempt(limiter: Limiter, key: string): Promise<boolean> {
  let outcome;
  try {
    outcome = await limiter.limit(key);
  } catch (error) {
    reportFailure("sign_in_failures", error);
    return false;
  }
  if (!outcome.success) throw tooManyFailures(Math.max(1, Math.ceil((outcome.reset - Date.now()) / 1000)));
  return true;
}

async function releaseAttempt(limiter: Limiter, key: string): Promise<void> {
  try {
    await limiter.release(key);
  } catch (error) {
    reportFailure("sign_in_failures", error); // the attempt stays counted: errs on the safe side
  }
}

import { db } from "../db";
import { AppError } from "../http/errors";
import { log } from "../log";
import { clientKey, limiterFor } from "../rate-limits/enforce-rate-limit";
import { rateLimitRule } from "../rate-limits/limits";
import { verifyPassword } from "./passwords";
import { canSignIn, createSession } from "./sessions";

// Sign-in: one answer (401 invalid_credentials) for an unknown email, a wrong password and a
// member who cannot sign in, each after one scrypt verification. After 5 failures for the same
// email from the same client IP within 15 minutes, further attempts get 429 before any check.

const invalidCredentials = () => new AppError("invalid_credentials", "The email or password is not right.");

export async function signIn(input: { email: string; password: string }, request: Request) {
  const email = input.email.toLowerCase();
  const rule = rateLimitRule("sign_in_failures");
  const limiter = limiterFor(rule);
  const key = `${clientKey(request) ?? "unknown-client"}|${email}`; // unknown: per account only
  const before = await limiter.peek(key).catch((error: unknown) => {
    log.warn("rate_limiter_unavailable", { limit: rule.name, failOpen: true, error });
    return null;
  });
  if (before && !before.success) {
    const retryAfter = Math.max(1, Math.ceil((before.reset - Date.now()) / 1000));
    throw new AppError("rate_limited", "Too many failed sign-ins. Please wait and try again.", { retryAfter });
  }
  const member = await (await db()).member.findUnique({
    where: { email },
    select: { id: true, email: true, role: true, passwordHash: true, deactivatedAt: true },
  });
  const passwordMatches = await verifyPassword(input.password, member?.passwordHash ?? null);
  if (!member || !passwordMatches || !canSignIn(member)) {
    await limiter.limit(key).catch(() => {});
    log.info("sign_in_failed");
    throw invalidCredentials();
  }
  return { memberId: member.id, token: await createSession(member.id) };
}

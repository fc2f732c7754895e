import { env, upstashRedisConfig } from "../core/env";
import { AppError } from "../core/errors";
import { log } from "../core/log";
import { clientIp, exactClientIp } from "./client-ip";
import type { Limiter, LimitOutcome } from "./limiter";
import { rateLimitRule, rateLimitsEnabled, type RateLimitName, type RateLimitRule } from "./limits";
import { MemoryLimiter } from "./memory-limiter";
import { UpstashLimiter } from "./upstash-limiter";
import { processSingleton } from "../core/process-registry.mjs";

// The pipeline's rate-limit step. Upstash Redis when configured (shared by all instances), else an
// in-process limiter. If the limiter itself fails, the request goes through (fail open) and the
// failure is logged: an outage of the limiter must not become an outage of the chat.

const KEY_PREFIX = "parley:rl";
const FAILURE_LOG_INTERVAL_MS = 30_000;

const lastFailureLoggedAt = new Map<RateLimitName, number>();

export function limiterFor(rule: RateLimitRule): Limiter {
  const limiters = processSingleton("rate limiters", () => new Map<RateLimitName, Limiter>());
  let limiter = limiters.get(rule.name);
  if (!limiter) {
    const redis = upstashRedisConfig();
    limiter = redis
      ? new UpstashLimiter(redis, rule.limit, rule.windowMs, `${KEY_PREFIX}:${rule.name}`)
      : new MemoryLimiter(rule.limit, rule.windowMs);
    limiters.set(rule.name, limiter);
  }
  return limiter;
}

export type RateLimitHeaders = Record<string, string>;

/**
 * Counts one request against the route's limit. Returns the X-RateLimit-* headers for the reply,
 * or throws 429 rate_limited with Retry-After. `subject` is the visitor's token lineage on visitor
 * routes and the member on inbox routes (and pages, which have no Request: null); widget routes count
 * per client IP.
 */
export async function enforceRateLimit(
  name: RateLimitName,
  request: Request | null,
  subject?: string,
): Promise<RateLimitHeaders> {
  if (!rateLimitsEnabled()) return {};
  const rule = rateLimitRule(name);
  const identifier = (rule.per === "token" || rule.per === "member") && subject ? `${rule.per}:${subject}` : ipIdentifier(request);
  // The client's address cannot be known here (see client-ip.ts): no per-IP limit, said at start.
  if (!identifier) return {};
  let outcome: LimitOutcome;
  try {
    outcome = await limiterFor(rule).limit(identifier);
  } catch (error) {
    reportFailure(rule.name, error);
    return {};
  }
  const headers = rateLimitHeaders(outcome);
  if (!outcome.success) {
    const retryAfter = Math.max(1, Math.ceil((outcome.reset - Date.now()) / 1000));
    throw new AppError("rate_limited", "Too many requests. Please slow down and retry later.", { retryAfter, headers });
  }
  return headers;
}

function ipIdentifier(request: Request | null): string | null {
  const ip = request && clientKey(request);
  return ip === null ? null : `ip:${ip}`;
}

function rateLimitHeaders({ limit, remaining, reset }: LimitOutcome): RateLimitHeaders {
  return {
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(Math.max(0, remaining)),
    "X-RateLimit-Reset": String(Math.ceil(reset / 1000)),
  };
}

/** The client IP key of a request (as the widget routes count it); null where it cannot be known. */
export const clientKey = (request: Request): string | null =>
  clientIp(request.headers, { trustedProxyHops: env().TRUSTED_PROXY_HOPS, onVercel: Boolean(env().VERCEL) });

/** The same client's whole address (the audit log's `ip`); null where it cannot be known. */
export const clientAddress = (request: Request): string | null =>
  exactClientIp(request.headers, { trustedProxyHops: env().TRUSTED_PROXY_HOPS, onVercel: Boolean(env().VERCEL) });

export function reportFailure(limit: RateLimitName, error: unknown): void {
  const now = Date.now();
  if (now - (lastFailureLoggedAt.get(limit) ?? 0) < FAILURE_LOG_INTERVAL_MS) return;
  lastFailureLoggedAt.set(limit, now);
  log.warn("rate_limiter_unavailable", { limit, failOpen: true, error });
}

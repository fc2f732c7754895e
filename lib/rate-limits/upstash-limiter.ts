import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import type { Limiter, LimitOutcome } from "./limiter";

// Limits shared by every instance of the service, through Upstash Redis (REST). A slow or
// unreachable Redis must not hold requests up: one quick retry, then the caller fails open.

const TIMEOUT_MS = 1_000;

/** Raised when Redis did not answer in time (the library then lets the request through). */
export class LimiterTimeout extends Error {}

export class UpstashLimiter implements Limiter {
  private readonly ratelimit: Ratelimit;

  constructor(redis: { url: string; token: string }, tokens: number, windowMs: number, prefix: string) {
    this.ratelimit = new Ratelimit({
      redis: new Redis({
        url: redis.url,
        token: redis.token,
        retry: { retries: 1, backoff: () => 50 },
        enableTelemetry: false,
      }),
      limiter: Ratelimit.slidingWindow(tokens, `${windowMs} ms`),
      prefix,
      timeout: TIMEOUT_MS,
      analytics: false,
    });
  }

  async limit(identifier: string): Promise<LimitOutcome> {
    const { success, limit, remaining, reset, reason } = await this.ratelimit.limit(identifier);
    if (reason === "timeout") throw new LimiterTimeout(`Upstash Redis did not answer within ${TIMEOUT_MS} ms`);
    return { success, limit, remaining, reset };
  }

  /**
   * @upstash/ratelimit's refund: a negative rate takes one off the current window's counter
   * (atomically, in the same Lua script as `limit`) and lifts the library's in-memory block. A
   * request counted just before the window turned is taken off the new window instead (the
   * counter may go to -1): at most one extra request in that window, and only after a release.
   */
  async release(identifier: string): Promise<void> {
    const { reason } = await this.ratelimit.limit(identifier, { rate: -1 });
    if (reason === "timeout") throw new LimiterTimeout(`Upstash Redis did not answer within ${TIMEOUT_MS} ms`);
  }

  async peek(identifier: string): Promise<LimitOutcome> {
    const { remaining, reset, limit } = await this.ratelimit.getRemaining(identifier);
    return { success: remaining > 0, limit, remaining, reset };
  }
}

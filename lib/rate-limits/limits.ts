import { env } from "../core/env";

// The named limits a route can declare. Each is a sliding window; its size comes from the
// environment (docs: RATE_LIMIT_*), read when first used.

export type RateLimitName = "starts" | "tickets" | "page_views" | "visitor" | "renew" | "sign_in_failures" | "sign_in_client_failures" | "search" | "articles";

export interface RateLimitRule {
  name: RateLimitName;
  limit: number;
  windowMs: number;
  /** What the client key is: the client's IP (widget routes), the visitor's token lineage, or the signed-in member (the operator token counting as one). */
  per: "ip" | "token" | "account_and_ip" | "member";
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export function rateLimitRule(name: RateLimitName): RateLimitRule {
  const config = env();
  switch (name) {
    case "starts":
      return { name, limit: config.RATE_LIMIT_STARTS_PER_MINUTE, windowMs: MINUTE, per: "ip" };
    case "tickets":
      return { name, limit: config.RATE_LIMIT_TICKETS_PER_MINUTE, windowMs: MINUTE, per: "ip" };
    case "page_views":
      return { name, limit: config.RATE_LIMIT_PAGE_VIEWS_PER_MINUTE, windowMs: MINUTE, per: "ip" };
    case "visitor":
      return { name, limit: config.RATE_LIMIT_VISITOR_PER_MINUTE, windowMs: MINUTE, per: "token" };
    case "renew":
      return { name, limit: config.RATE_LIMIT_RENEW_PER_HOUR, windowMs: HOUR, per: "token" };
    case "search":
      // Each search reads indexes over every message: a member (or a stolen session), or a script
      // with the operator token, cannot loop it.
      return { name, limit: config.RATE_LIMIT_SEARCH_PER_MINUTE, windowMs: MINUTE, per: "member" };
    case "articles":
      // Suggestions arrive as the visitor types: more than page views, still per client.
      return { name, limit: config.RATE_LIMIT_ARTICLES_PER_MINUTE, windowMs: MINUTE, per: "ip" };
    case "sign_in_failures":
      // A security control, not a capacity limit: fixed, and on even with RATE_LIMITS=off.
      return { name, limit: 5, windowMs: 15 * MINUTE, per: "account_and_ip" };
    case "sign_in_client_failures":
      // One client guessing across many accounts (password spraying): fixed and always on as well.
      return { name, limit: 20, windowMs: 15 * MINUTE, per: "ip" };
  }
}

export const rateLimitsEnabled = () => env().RATE_LIMITS === "on";

import type { z } from "zod";
import { ConfigError, envSchema, parseEnv, publicOrigin } from "./env-schema.mjs";

// The only reader of process.env in the app. Parsed on first use (not at import), so tests and
// scripts can set variables first. The variables and their rules live in lib/core/env-schema.mjs,
// shared with next.config.mjs and `npm start`, which parse the environment the same way.

export type Env = z.infer<typeof envSchema>;

export { ConfigError, parseEnv };

let parsed: Env | undefined;

export function env(): Env {
  parsed ??= parseEnv(process.env);
  return parsed;
}

/** The service's own public origin: PUBLIC_URL, or localhost on PORT. */
export function serviceOrigin(): string {
  return publicOrigin(env());
}

/** On Vercel: set by the platform, at build and at run time. */
export function onVercel(): boolean {
  return Boolean(env().VERCEL);
}

/**
 * The connection for what a transaction pooler cannot carry (LISTEN, advisory locks):
 * DIRECT_DATABASE_URL when set, else DATABASE_URL; undefined in embedded mode.
 */
export function directDatabaseUrl(): string | undefined {
  const { DATABASE_URL, DIRECT_DATABASE_URL } = env();
  return DATABASE_URL ? (DIRECT_DATABASE_URL ?? DATABASE_URL) : undefined;
}

export function isEmbeddedDatabase(): boolean {
  return !env().DATABASE_URL;
}

/** Upstash Redis REST credentials, when configured (UPSTASH_REDIS_REST_*, else Vercel's KV_REST_API_*). */
export function upstashRedisConfig(): { url: string; token: string } | null {
  const { UPSTASH_REDIS_REST_URL, UPSTASH_REDIS_REST_TOKEN, KV_REST_API_URL, KV_REST_API_TOKEN } = env();
  if (UPSTASH_REDIS_REST_URL && UPSTASH_REDIS_REST_TOKEN) return { url: UPSTASH_REDIS_REST_URL, token: UPSTASH_REDIS_REST_TOKEN };
  if (KV_REST_API_URL && KV_REST_API_TOKEN) return { url: KV_REST_API_URL, token: KV_REST_API_TOKEN };
  return null;
}

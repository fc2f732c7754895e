import { Redis } from "@upstash/redis";
import { queryPrepared } from "../db/client";
import { upstashRedisConfig } from "../core/env";
import { AppError } from "../core/errors";
import { isDraining } from "../core/lifecycle.mjs";

// What a load balancer or uptime check asks before sending traffic: can this instance reach the
// backends a request needs? The database always; Upstash Redis when rate limits are kept there.

const REDIS_TIMEOUT_MS = 1_000;
const PING: { name: string; text: string } = { name: "ready_ping", text: "SELECT 1 AS ok" };

export interface Readiness {
  database: "ok";
  redis: "ok" | "not_configured";
}

const unavailable = (backend: string) =>
  new AppError("service_unavailable", `The ${backend} cannot be reached.`, { retryAfter: 5 });

/**
 * Resolves when every required backend answers; throws 503 `service_unavailable` naming the first
 * that does not, or while the server shuts down.
 */
export async function checkReadiness(): Promise<Readiness> {
  // A load balancer must stop sending traffic here while `npm start` drains (lib/core/lifecycle.mjs).
  if (isDraining()) throw new AppError("service_unavailable", "The service is shutting down.", { retryAfter: 5 });
  try {
    await queryPrepared(PING, []);
  } catch {
    throw unavailable("database");
  }
  const redis = upstashRedisConfig();
  if (!redis) return { database: "ok", redis: "not_configured" };
  if (!(await redisAnswers(redis))) throw unavailable("rate-limit store (Redis)");
  return { database: "ok", redis: "ok" };
}

async function redisAnswers(config: { url: string; token: string }): Promise<boolean> {
  const client = new Redis({ ...config, retry: false, enableTelemetry: false, signal: () => AbortSignal.timeout(REDIS_TIMEOUT_MS) });
  try {
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  }
}

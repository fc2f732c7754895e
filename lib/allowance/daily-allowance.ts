import type { PrismaClient } from "../db/client";
import type { InboxDailyUsage } from "../generated/prisma/client";
import { AppError } from "../core/errors";
import type { SqlRow } from "../core/sql-row";
import { drawAllowanceSql } from "./draw-statement";

// Conversation starts and tickets each draw one unit of their inbox's allowance for the UTC day.
// One statement both checks and draws (lib/allowance/draw-statement.ts), so no interleaving of
// concurrent requests can overdraw. Tickets draw inside the transaction that creates them, and a
// start draws in the statement that creates the conversation (START_CONVERSATION), so a creation
// that fails gives its unit back.

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

const DAY_MS = 24 * 60 * 60 * 1000;

export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** Whole seconds until the next UTC midnight (at least 1). */
export function secondsUntilNextUtcMidnight(now: Date): number {
  const nextMidnight = Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  return Math.max(1, Math.ceil((nextMidnight - now.getTime()) / 1000));
}

/** Draws one unit for today, or throws 429 daily_allowance_exhausted (nothing drawn). */
export async function drawDailyAllowance(tx: Transaction, inboxId: string, now = new Date()): Promise<number> {
  const rows = await tx.$queryRawUnsafe<SqlRow<InboxDailyUsage, "used">[]>(drawAllowanceSql("$1", "$2", "1"), inboxId, utcDay(now));
  const drawn = rows[0];
  if (!drawn) throw allowanceExhausted(now);
  return Number(drawn.used);
}

/** The 429 of a spent allowance, to retry after the next UTC midnight. */
export const allowanceExhausted = (now: Date) =>
  new AppError("daily_allowance_exhausted", "This inbox has reached its limit for today. Please try again tomorrow.", {
    retryAfter: secondsUntilNextUtcMidnight(now),
  });

/** Units drawn today (operator views and tests). */
export async function dailyUsage(prisma: PrismaClient, inboxId: string, now = new Date()): Promise<number> {
  const rows = await prisma.$queryRaw<SqlRow<InboxDailyUsage, "used">[]>`
    SELECT used FROM inbox_daily_usage WHERE inbox_id = ${inboxId} AND day = ${utcDay(now)}::date`;
  return Number(rows[0]?.used ?? 0);
}

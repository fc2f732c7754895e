import type { PrismaClient } from "../db";
import type { InboxDailyUsage } from "../generated/prisma/client";
import { AppError } from "../http/errors";
import type { SqlRow } from "../sql-row";

// Conversation starts and tickets each draw one unit of their inbox's allowance for the UTC day.
// One statement both checks and draws, so no interleaving of concurrent requests can overdraw:
// the conflicting row is locked and the WHERE is re-checked against its latest committed value.
// Callers draw inside the transaction that creates the conversation or ticket, so a creation that
// fails gives its unit back.

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
  const day = utcDay(now);
  // The INSERT path reads the allowance too, so an allowance of 0 refuses the day's first draw.
  const rows = await tx.$queryRaw<SqlRow<InboxDailyUsage, "used">[]>`
    INSERT INTO inbox_daily_usage (inbox_id, day, used)
    SELECT id, ${day}::date, 1 FROM inboxes WHERE id = ${inboxId} AND daily_allowance > 0
    ON CONFLICT (inbox_id, day) DO UPDATE SET used = inbox_daily_usage.used + 1
    WHERE inbox_daily_usage.used < (SELECT daily_allowance FROM inboxes WHERE id = EXCLUDED.inbox_id)
    RETURNING used`;
  const drawn = rows[0];
  if (!drawn) {
    throw new AppError("daily_allowance_exhausted", "This inbox has reached its limit for today. Please try again tomorrow.", {
      retryAfter: secondsUntilNextUtcMidnight(now),
    });
  }
  return Number(drawn.used);
}

/** Units drawn today (operator views and tests). */
export async function dailyUsage(prisma: PrismaClient, inboxId: string, now = new Date()): Promise<number> {
  const rows = await prisma.$queryRaw<SqlRow<InboxDailyUsage, "used">[]>`
    SELECT used FROM inbox_daily_usage WHERE inbox_id = ${inboxId} AND day = ${utcDay(now)}::date`;
  return Number(rows[0]?.used ?? 0);
}

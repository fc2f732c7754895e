import { Prisma } from "../generated/prisma/client";
import type { ConversationCycle, ConversationRating } from "../generated/prisma/client";
import { db, type PrismaClient } from "../db/client";
import type { SqlRow } from "../core/sql-row";

// The SQL of conversation_cycles and report_stale_conversations (migration 20261129030000;
// docs/reports.md, "Precomputed"). What a row holds is decided by lib/reports/cycles.ts through
// measureCycles; here rows are only stored and summed.

type Transaction = Pick<PrismaClient, "$queryRaw" | "$executeRaw">;

/** Locks up to `limit` stale conversations (oldest mark first) that no other measurement holds. */
export async function lockStale(tx: Transaction, limit: number): Promise<string[]> {
  const rows = await tx.$queryRaw<{ conversation_id: string }[]>`
    SELECT conversation_id FROM report_stale_conversations ORDER BY marked_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
  return rows.map((row) => row.conversation_id);
}

export type CycleRow = ConversationCycle;

/** Replaces the conversations' rows with `rows` and clears their marks (in the transaction that locked them). */
export async function replaceCycles(tx: Transaction, conversationIds: string[], rows: CycleRow[]): Promise<void> {
  await tx.$executeRaw`DELETE FROM conversation_cycles WHERE conversation_id = ANY(${conversationIds}::text[])`;
  if (rows.length > 0) {
    const column = <Key extends keyof CycleRow>(key: Key) => rows.map((row) => row[key]);
    const times = (key: "startedAt" | "closedAt") => rows.map((row) => row[key]?.toISOString() ?? null);
    await tx.$executeRaw`
      INSERT INTO conversation_cycles (conversation_id, position, cycle, site_id, member_id, started_at, first_response_s,
        first_response_skipped_s, bot_replies_ignored, resolution_s, resolution_skipped_s, closed_at)
      SELECT * FROM unnest(${column("conversationId")}::text[], ${column("position")}::int[], ${column("cycle")}::int[],
        ${column("siteId")}::text[], ${column("memberId")}::text[], ${times("startedAt")}::timestamptz[],
        ${column("firstResponseS")}::int[], ${column("firstResponseSkippedS")}::int[], ${column("botRepliesIgnored")}::int[],
        ${column("resolutionS")}::int[], ${column("resolutionSkippedS")}::int[], ${times("closedAt")}::timestamptz[])`;
  }
  await tx.$executeRaw`DELETE FROM report_stale_conversations WHERE conversation_id = ANY(${conversationIds}::text[])`;
}

/** A report's range and scope: null site or member, any. */
export interface RangeFilter {
  from: Date;
  to: Date;
  site: string | null;
  member: string | null;
}

const scope = (alias: "c" | "cc", site: string | null, member: string | null) =>
  alias === "c"
    ? Prisma.sql`(${site}::text IS NULL OR c.site_id = ${site}) AND (${member}::text IS NULL OR c.assigned_member_id = ${member})`
    : Prisma.sql`(${site}::text IS NULL OR cc.site_id = ${site}) AND (${member}::text IS NULL OR cc.member_id = ${member})`;
const utcDay = (column: Prisma.Sql) => Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/** One UTC day and member of a range: what happened then (the report's smallest bucket). */
export interface DayFacts {
  day: string;
  memberId: string | null;
  started: number;
  closed: number;
  /** Seconds of the cycles started that day that have a value. */
  firstResponses: number[];
  resolutions: number[];
  /** Ratings given that day, by score 1..5. */
  ratings: number[];
}

type CountRow = { day: string; member_id: string | null; count: number };
type CycleDayRow = { day: string; member_id: string | null; first_responses: number[] | null; resolutions: number[] | null };
type RatingDayRow = CountRow & Pick<SqlRow<ConversationRating, "score">, "score">;

/** The range's facts per UTC day and member, summed by the database from the indexed rows. */
export async function dayFactsIn({ from, to, site, member }: RangeFilter): Promise<DayFacts[]> {
  const prisma = await db();
  const [started, closed, cycles, ratings] = await Promise.all([
    prisma.$queryRaw<CountRow[]>`
      SELECT ${utcDay(Prisma.sql`c.created_at`)} AS day, c.assigned_member_id AS member_id, count(*)::int AS count FROM conversations c
      WHERE c.created_at >= ${from} AND c.created_at < ${to} AND ${scope("c", site, member)} GROUP BY 1, 2`,
    prisma.$queryRaw<CountRow[]>`
      SELECT ${utcDay(Prisma.sql`cc.closed_at`)} AS day, cc.member_id, count(*)::int AS count FROM conversation_cycles cc
      WHERE cc.closed_at >= ${from} AND cc.closed_at < ${to} AND ${scope("cc", site, member)} GROUP BY 1, 2`,
    prisma.$queryRaw<CycleDayRow[]>`
      SELECT ${utcDay(Prisma.sql`cc.started_at`)} AS day, cc.member_id,
             array_agg(cc.first_response_s) FILTER (WHERE cc.first_response_s IS NOT NULL) AS first_responses,
             array_agg(cc.resolution_s) FILTER (WHERE cc.resolution_s IS NOT NULL) AS resolutions
        FROM conversation_cycles cc
      WHERE cc.started_at >= ${from} AND cc.started_at < ${to} AND ${scope("cc", site, member)} GROUP BY 1, 2`,
    prisma.$queryRaw<RatingDayRow[]>`
      SELECT ${utcDay(Prisma.sql`r.created_at`)} AS day, c.assigned_member_id AS member_id, r.score, count(*)::int AS count
        FROM conversation_ratings r JOIN conversations c ON c.id = r.conversation_id
      WHERE r.created_at >= ${from} AND r.created_at < ${to} AND ${scope("c", site, member)} GROUP BY 1, 2, 3`,
  ]);
  const facts = new Map<string, DayFacts>();
  const at = (day: string, memberId: string | null) => {
    const key = `${day} ${memberId ?? ""}`;
    return facts.get(key) ?? facts.set(key, { day, memberId, started: 0, closed: 0, firstResponses: [], resolutions: [], ratings: [0, 0, 0, 0, 0] }).get(key)!;
  };
  for (const row of started) at(row.day, row.member_id).started += row.count;
  for (const row of closed) at(row.day, row.member_id).closed += row.count;
  for (const row of cycles) {
    const day = at(row.day, row.member_id);
    day.firstResponses.push(...(row.first_responses ?? []));
    day.resolutions.push(...(row.resolutions ?? []));
  }
  for (const row of ratings) at(row.day, row.member_id).ratings[row.score - 1]! += row.count;
  return [...facts.values()];
}

type CsvRow = SqlRow<
  ConversationCycle,
  "conversation_id" | "site_id" | "member_id" | "cycle" | "started_at" | "first_response_s" | "first_response_skipped_s" | "bot_replies_ignored" | "resolution_s" | "resolution_skipped_s" | "closed_at"
>;

/** The cycles started in the range, in start order (reports.csv). */
export async function cyclesStartedIn({ from, to, site, member }: RangeFilter): Promise<CsvRow[]> {
  return (await db()).$queryRaw<CsvRow[]>`
    SELECT cc.conversation_id, cc.site_id, cc.member_id, cc.cycle, cc.started_at, cc.first_response_s, cc.first_response_skipped_s,
           cc.bot_replies_ignored, cc.resolution_s, cc.resolution_skipped_s, cc.closed_at
      FROM conversation_cycles cc
     WHERE cc.started_at >= ${from} AND cc.started_at < ${to} AND ${scope("cc", site, member)}
     ORDER BY cc.started_at, cc.conversation_id, cc.cycle`;
}

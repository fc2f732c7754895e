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
        first_response_skipped_s, bot_replies_ignored, resolution_s, resolution_skipped_s, closed_at, first_responder_id, closed_by_id)
      SELECT * FROM unnest(${column("conversationId")}::text[], ${column("position")}::int[], ${column("cycle")}::int[],
        ${column("siteId")}::text[], ${column("memberId")}::text[], ${times("startedAt")}::timestamptz[],
        ${column("firstResponseS")}::int[], ${column("firstResponseSkippedS")}::int[], ${column("botRepliesIgnored")}::int[],
        ${column("resolutionS")}::int[], ${column("resolutionSkippedS")}::int[], ${times("closedAt")}::timestamptz[],
        ${column("firstResponderId")}::text[], ${column("closedById")}::text[])`;
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

/** "Started" stays with the member assigned now (nobody has done anything yet when a conversation starts). */
const assignedScope = (site: string | null, member: string | null) =>
  Prisma.sql`(${site}::text IS NULL OR c.site_id = ${site}) AND (${member}::text IS NULL OR c.assigned_member_id = ${member})`;
// Who a cycle's figures are credited to (round 4): its first response to the member who sent it; its
// close and resolution to the member who closed it, or when nobody did (the operator API, an
// automatic close) to its first responder. Never the member assigned now.
const RESPONDER = Prisma.sql`cc.first_responder_id`;
const CLOSER = Prisma.sql`coalesce(cc.closed_by_id, cc.first_responder_id)`;
const credited = (who: Prisma.Sql, site: string | null, member: string | null) =>
  Prisma.sql`(${site}::text IS NULL OR cc.site_id = ${site}) AND (${member}::text IS NULL OR ${who} = ${member})`;
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
      WHERE c.created_at >= ${from} AND c.created_at < ${to} AND ${assignedScope(site, member)} GROUP BY 1, 2`,
    prisma.$queryRaw<CountRow[]>`
      SELECT ${utcDay(Prisma.sql`cc.closed_at`)} AS day, ${CLOSER} AS member_id, count(*)::int AS count FROM conversation_cycles cc
      WHERE cc.closed_at >= ${from} AND cc.closed_at < ${to} AND ${credited(CLOSER, site, member)} GROUP BY 1, 2`,
    prisma.$queryRaw<CycleDayRow[]>`
      SELECT ${utcDay(Prisma.sql`cc.started_at`)} AS day, ${RESPONDER} AS member_id,
             array_agg(cc.first_response_s) FILTER (WHERE cc.first_response_s IS NOT NULL) AS first_responses, NULL::int[] AS resolutions
        FROM conversation_cycles cc
      WHERE cc.started_at >= ${from} AND cc.started_at < ${to} AND cc.first_response_s IS NOT NULL AND ${credited(RESPONDER, site, member)} GROUP BY 1, 2
      UNION ALL
      SELECT ${utcDay(Prisma.sql`cc.started_at`)} AS day, ${CLOSER} AS member_id,
             NULL::int[], array_agg(cc.resolution_s) AS resolutions
        FROM conversation_cycles cc
      WHERE cc.started_at >= ${from} AND cc.started_at < ${to} AND cc.resolution_s IS NOT NULL AND ${credited(CLOSER, site, member)} GROUP BY 1, 2`,
    // A rating is the close's: credited as the latest cycle closed before it.
    prisma.$queryRaw<RatingDayRow[]>`
      SELECT ${utcDay(Prisma.sql`r.created_at`)} AS day, cc.member_id, r.score, count(*)::int AS count
        FROM conversation_ratings r JOIN conversations c ON c.id = r.conversation_id
        LEFT JOIN LATERAL (
          SELECT ${CLOSER} AS member_id FROM conversation_cycles cc
           WHERE cc.conversation_id = r.conversation_id AND cc.closed_at <= r.created_at
           ORDER BY cc.closed_at DESC LIMIT 1
        ) cc ON true
      WHERE r.created_at >= ${from} AND r.created_at < ${to} AND (${site}::text IS NULL OR c.site_id = ${site})
        AND (${member}::text IS NULL OR cc.member_id = ${member}) GROUP BY 1, 2, 3`,
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
  | "conversation_id" | "site_id" | "member_id" | "cycle" | "started_at" | "first_response_s" | "first_response_skipped_s" | "bot_replies_ignored"
  | "resolution_s" | "resolution_skipped_s" | "closed_at" | "first_responder_id" | "closed_by_id"
> & {
  visitor_name: string | null;
  visitor_seed: string;
  first_responder_name: string | null;
  closed_by_name: string | null;
  rating: number | null;
  labels: string | null;
  /** The cycle's SLA targets (sla_outcomes, migration 20261210000200): all met, any missed, or null (none decided). */
  sla_policy_id: string | null;
  sla_first_response_met: boolean | null;
  sla_next_response_met: boolean | null;
  sla_resolution_met: boolean | null;
};

/**
 * The cycles started in the range, in start order (reports.csv); `member`: the cycles credited to
 * that member (first response or close). A cycle's rating is the first one given after its close,
 * before another close; labels are the conversation's now, by name.
 */
export async function cyclesStartedIn({ from, to, site, member }: RangeFilter): Promise<CsvRow[]> {
  return (await db()).$queryRaw<CsvRow[]>`
    SELECT cc.conversation_id, cc.site_id, cc.member_id, cc.cycle, cc.started_at, cc.first_response_s, cc.first_response_skipped_s,
           cc.bot_replies_ignored, cc.resolution_s, cc.resolution_skipped_s, cc.closed_at, cc.first_responder_id, cc.closed_by_id,
           c.visitor_name, coalesce(c.browser_visitor_id, c.visitor_id) AS visitor_seed,
           responder.name AS first_responder_name, closer.name AS closed_by_name, rated.score AS rating, tagged.labels,
           sla.policy_id AS sla_policy_id, sla.first_met AS sla_first_response_met, sla.next_met AS sla_next_response_met, sla.resolution_met AS sla_resolution_met
      FROM conversation_cycles cc
      JOIN conversations c ON c.id = cc.conversation_id
      LEFT JOIN members responder ON responder.id = cc.first_responder_id
      LEFT JOIN members closer ON closer.id = cc.closed_by_id
      LEFT JOIN LATERAL (
        SELECT r.score FROM conversation_ratings r
         WHERE r.conversation_id = cc.conversation_id AND cc.closed_at IS NOT NULL AND r.created_at >= cc.closed_at
           AND NOT EXISTS (SELECT 1 FROM conversation_cycles n WHERE n.conversation_id = cc.conversation_id
                              AND n.closed_at > cc.closed_at AND n.closed_at <= r.created_at)
         ORDER BY r.created_at LIMIT 1
      ) rated ON true
      LEFT JOIN LATERAL (
        SELECT string_agg(l.name, '; ' ORDER BY l.name) AS labels
          FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id WHERE cl.conversation_id = cc.conversation_id
      ) tagged ON true
      LEFT JOIN LATERAL (
        SELECT max(o.policy_id) AS policy_id,
               bool_and(o.met) FILTER (WHERE o.kind = 'first_response') AS first_met,
               bool_and(o.met) FILTER (WHERE o.kind = 'next_response') AS next_met,
               bool_and(o.met) FILTER (WHERE o.kind = 'resolution') AS resolution_met
          FROM sla_outcomes o
         WHERE o.conversation_id = cc.conversation_id AND o.started_at >= cc.started_at
           AND o.started_at < coalesce((SELECT min(n.started_at) FROM conversation_cycles n
                                         WHERE n.conversation_id = cc.conversation_id AND n.started_at > cc.started_at), 'infinity')
      ) sla ON true
     WHERE cc.started_at >= ${from} AND cc.started_at < ${to} AND (${site}::text IS NULL OR cc.site_id = ${site})
       AND (${member}::text IS NULL OR ${RESPONDER} = ${member} OR ${CLOSER} = ${member})
     ORDER BY cc.started_at, cc.conversation_id, cc.cycle`;
}

/** One group of decided SLA targets (met or missed) started in the range. */
export interface SlaMetRow {
  policy_id: string;
  policy_name: string | null;
  team_id: string | null;
  team_name: string | null;
  member_id: string | null;
  member_name: string | null;
  met: number;
  missed: number;
}

/**
 * The SLA targets started in the range and decided (met, or missed), per policy, team and member
 * credited (sla_outcomes, kept by lib/sla/refresh.ts; docs/sla.md): the reports' "% of SLAs met".
 */
export async function slaMetIn({ from, to, site, member }: RangeFilter): Promise<SlaMetRow[]> {
  return (await db()).$queryRaw<SlaMetRow[]>`
    SELECT o.policy_id, p.name AS policy_name, o.team_id, t.name AS team_name, o.member_id, m.name AS member_name,
           (count(*) FILTER (WHERE o.met))::int AS met, (count(*) FILTER (WHERE NOT o.met))::int AS missed
      FROM sla_outcomes o
      LEFT JOIN sla_policies p ON p.id = o.policy_id
      LEFT JOIN teams t ON t.id = o.team_id
      LEFT JOIN members m ON m.id = o.member_id
     WHERE o.started_at >= ${from} AND o.started_at < ${to} AND o.met IS NOT NULL
       AND (${site}::text IS NULL OR o.site_id = ${site}) AND (${member}::text IS NULL OR o.member_id = ${member})
     GROUP BY 1, 2, 3, 4, 5, 6`;
}

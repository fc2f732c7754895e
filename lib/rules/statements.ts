import { Prisma } from "../generated/prisma/client";
import type { PrismaClient } from "../db/client";
import type { RuleEvent } from "../contracts/rules";

// The rules' SQL (docs/rules.md): what a rule's conditions read of a conversation in one
// statement, the claim of a run (the unique key is "at most once per event"), the pruning of old
// runs, and the idle sweep's candidates.

export interface FactsRow {
  id: string;
  site_id: string;
  team_id: string | null;
  status: string;
  start_page_url: string | null;
  visitor_email: string | null;
  locale: string | null;
  site_locale: string | null;
  timezone: string;
  hours: unknown;
  holidays: string[];
  label_ids: string[];
  message_body: string | null;
  attributes: unknown;
}

/**
 * The conversation's facts; `message.body` is the triggering message (message.created), the first
 * visitor message (conversation.created), else the latest visitor message.
 */
export async function readFacts(prisma: PrismaClient, conversationId: string, event: RuleEvent | null, messageId: string | null): Promise<FactsRow | null> {
  const body =
    messageId !== null
      ? Prisma.sql`(SELECT m."body" FROM "messages" m WHERE m."id" = ${messageId} AND m."conversation_id" = c."id")`
      : Prisma.sql`(SELECT m."body" FROM "messages" m WHERE m."conversation_id" = c."id" AND m."author_type" = 'visitor' AND m."kind" = 'message'
           ORDER BY m."sequence" ${event === "conversation.created" ? Prisma.sql`ASC` : Prisma.sql`DESC`} LIMIT 1)`;
  const rows = await prisma.$queryRaw<FactsRow[]>`
    SELECT c."id", c."site_id", c."team_id", c."status", c."start_page_url", c."visitor_email", c."locale", c."attributes",
           s."locale" AS site_locale, s."timezone", s."hours", s."holidays",
           coalesce((SELECT array_agg(l."label_id" ORDER BY l."label_id") FROM "conversation_labels" l WHERE l."conversation_id" = c."id"), '{}') AS label_ids,
           ${body} AS message_body
      FROM "conversations" c JOIN "sites" s ON s."id" = c."site_id"
     WHERE c."id" = ${conversationId}`;
  return rows[0] ?? null;
}

/** Claims the rule's run for this event: false when it already ran for it. */
export async function claimRun(prisma: PrismaClient, run: { id: string; ruleId: string; eventKey: string; conversationId: string; matched: boolean }): Promise<boolean> {
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO "rule_runs" ("id", "rule_id", "event_key", "conversation_id", "matched") VALUES (${run.id}, ${run.ruleId}, ${run.eventKey}, ${run.conversationId}, ${run.matched})
    ON CONFLICT ("rule_id", "event_key") DO NOTHING RETURNING "id"`;
  return rows.length > 0;
}

/** Keeps a rule's newest `keep` runs (and every run of the last day: they still guard "once per event"). */
export async function pruneRuns(prisma: PrismaClient, ruleId: string, keep: number): Promise<void> {
  await prisma.$executeRaw`
    DELETE FROM "rule_runs" WHERE "rule_id" = ${ruleId} AND "at" < now() - interval '1 day'
       AND "id" NOT IN (SELECT "id" FROM "rule_runs" WHERE "rule_id" = ${ruleId} AND "matched" ORDER BY "at" DESC, "id" DESC LIMIT ${keep})`;
}

export interface IdleCandidate {
  rule_id: string;
  conversation_id: string;
  /** The last message that counts (a visitor's or a person's, never a rule's): the quiet spell's name. */
  quiet_after: string;
}

/**
 * Open conversations quiet for at least a conversation.idle rule's minutes (and for at most a day
 * more: an old quiet conversation is not news) that the rule has not run on for this quiet spell.
 * What a rule writes does not end a quiet spell (docs/rules.md, "Loops").
 */
export async function idleCandidates(prisma: PrismaClient, rulesBotId: string, limit: number): Promise<IdleCandidate[]> {
  return prisma.$queryRaw<IdleCandidate[]>`
    SELECT r."id" AS rule_id, c."id" AS conversation_id, q."id" AS quiet_after
      FROM "rules" r
      JOIN "conversations" c ON c."status" = 'open'
       AND c."last_activity_at" <= now() - r."idle_minutes" * interval '1 minute'
       AND c."last_activity_at" > now() - (r."idle_minutes" + 1440) * interval '1 minute'
      CROSS JOIN LATERAL (
        SELECT m."id", m."created_at" AS at FROM "messages" m
         WHERE m."conversation_id" = c."id" AND m."author_type" IN ('visitor', 'staff') AND m."member_id" IS DISTINCT FROM ${rulesBotId}
         ORDER BY m."sequence" DESC, m."note_number" DESC LIMIT 1) q
     WHERE r."enabled" AND r."event" = 'conversation.idle' AND r."idle_minutes" IS NOT NULL
       AND q."at" <= now() - r."idle_minutes" * interval '1 minute'
       AND NOT EXISTS (SELECT 1 FROM "rule_runs" rr WHERE rr."rule_id" = r."id" AND rr."event_key" = 'idle:' || q."id")
     ORDER BY r."position", c."id"
     LIMIT ${limit}`;
}

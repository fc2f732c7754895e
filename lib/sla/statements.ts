import type { Conversation, Prisma } from "../generated/prisma/client";
import type { SqlRow } from "../core/sql-row";
import type { Interval } from "../service-hours/service-hours";

// The SQL of the SLA clock's columns on conversations and of sla_stale_conversations (migration
// 20261210000200; docs/sla.md). What the columns hold is decided by lib/sla/compute.ts.

type Transaction = Pick<Prisma.TransactionClient, "$queryRaw" | "$executeRaw">;

// Lock order, so that a computation never waits and can never deadlock with a writer (a send locks
// its conversation, then marks it; a label change marks it, then locks it for its timeline event):
// the conversation rows first, then their marks, both with SKIP LOCKED; a computation deletes only
// the marks it locked.

/** Locks up to `limit` marked conversations (oldest mark first) no one else holds; `only`: among these. */
export async function lockStale(tx: Transaction, limit: number, only: string[] | null = null): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM conversations c
     WHERE c.id IN (SELECT conversation_id FROM sla_stale_conversations
                     WHERE (${only}::text[] IS NULL OR conversation_id = ANY(${only}::text[]))
                     ORDER BY marked_at LIMIT ${limit})
       FOR UPDATE OF c SKIP LOCKED`;
  return rows.map((row) => row.id);
}

/** Locks the marks of these (locked) conversations that no writer holds: the ones this computation may delete. */
export async function lockMarks(tx: Transaction, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx.$queryRaw<{ conversation_id: string }[]>`
    SELECT conversation_id FROM sla_stale_conversations WHERE conversation_id = ANY(${ids}::text[]) FOR UPDATE SKIP LOCKED`;
  return rows.map((row) => row.conversation_id);
}

/** Whether any conversation (`only`: of these) is marked: one index probe, outside a transaction. */
export async function anyStale(client: Pick<Prisma.TransactionClient, "$queryRaw">, only: string[] | null): Promise<boolean> {
  const rows = await client.$queryRaw<unknown[]>`
    SELECT 1 FROM sla_stale_conversations WHERE (${only}::text[] IS NULL OR conversation_id = ANY(${only}::text[])) LIMIT 1`;
  return rows.length > 0;
}

/** Locks up to `limit` conversations whose next check is due by `now` (the breach sweep). */
export async function lockDue(tx: Transaction, now: Date, limit: number): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM conversations WHERE sla_check_at <= ${now} ORDER BY sla_check_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
  return rows.map((row) => row.id);
}

/** Locks these conversations (those still there and not held by another), for a computation one at a time. */
export async function lockIds(tx: Transaction, ids: string[]): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM conversations WHERE id = ANY(${ids}::text[]) FOR UPDATE SKIP LOCKED`;
  return rows.map((row) => row.id);
}

/** A conversation whose computation failed by itself: its mark dropped, looked at again by the sweep at `retryAt`. */
export async function setAside(tx: Transaction, id: string, retryAt: Date): Promise<void> {
  await tx.$executeRaw`DELETE FROM sla_stale_conversations WHERE conversation_id = ${id}`;
  await tx.$executeRaw`UPDATE conversations SET sla_check_at = ${retryAt} WHERE id = ${id}`;
}

export async function clearStale(tx: Transaction, ids: string[]): Promise<void> {
  await tx.$executeRaw`DELETE FROM sla_stale_conversations WHERE conversation_id = ANY(${ids}::text[])`;
}

export interface RecordedBreach {
  kind: string;
  at: string;
  why: string;
  key: string;
}

type FactsRow = SqlRow<Conversation, "id" | "site_id" | "team_id" | "status" | "snoozed_until" | "assigned_member_id"> & {
  sla_breaches: RecordedBreach[];
  label_ids: string[];
};

export interface SlaFacts {
  id: string;
  siteId: string;
  teamId: string | null;
  status: string;
  snoozedUntil: Date | null;
  assignedMemberId: string | null;
  labelIds: string[];
  recorded: RecordedBreach[];
}

/** What matching a policy and recording breaches need of each conversation. */
export async function factsOf(tx: Transaction, ids: string[]): Promise<SlaFacts[]> {
  const rows = await tx.$queryRaw<FactsRow[]>`
    SELECT c.id, c.site_id, c.team_id, c.status, c.snoozed_until, c.assigned_member_id, c.sla_breaches,
           COALESCE((SELECT array_agg(cl.label_id) FROM conversation_labels cl WHERE cl.conversation_id = c.id), ARRAY[]::text[]) AS label_ids
      FROM conversations c WHERE c.id = ANY(${ids}::text[])`;
  return rows.map((row) => ({
    id: row.id,
    siteId: row.site_id,
    teamId: row.team_id,
    status: row.status,
    snoozedUntil: row.snoozed_until,
    assignedMemberId: row.assigned_member_id,
    labelIds: row.label_ids,
    recorded: Array.isArray(row.sla_breaches) ? row.sla_breaches : [],
  }));
}

type SnoozeRow = { conversation_id: string; event: "snoozed" | "unsnoozed"; created_at: Date; until: string | null };

/**
 * Each conversation's snoozes from its timeline events: a snooze lasts until the next `unsnoozed`,
 * another snooze, or its own `until`, whichever is first (a close while snoozed wakes it too: the
 * status change writes `unsnoozed`).
 */
export async function snoozesOf(tx: Transaction, ids: string[]): Promise<Map<string, Interval[]>> {
  const rows = await tx.$queryRaw<SnoozeRow[]>`
    SELECT conversation_id, event, created_at, details->>'until' AS until FROM messages
     WHERE conversation_id = ANY(${ids}::text[]) AND kind = 'note' AND event IN ('snoozed', 'unsnoozed')
     ORDER BY conversation_id, note_number`;
  const pauses = new Map<string, Interval[]>();
  let open: { conversationId: string; start: number; until: number } | null = null;
  const end = (at: number) => {
    if (!open) return;
    const list = pauses.get(open.conversationId) ?? pauses.set(open.conversationId, []).get(open.conversationId)!;
    list.push({ start: open.start, end: Math.min(at, open.until) });
    open = null;
  };
  for (const row of rows) {
    if (open && open.conversationId !== row.conversation_id) end(Infinity);
    const time = row.created_at.getTime();
    end(time);
    if (row.event === "snoozed") {
      const until = row.until ? Date.parse(row.until) : NaN;
      open = { conversationId: row.conversation_id, start: time, until: Number.isFinite(until) ? until : time };
    }
  }
  end(Infinity);
  return pauses;
}

export interface SlaColumns {
  id: string;
  policyId: string | null;
  firstResponseDueAt: Date | null;
  nextResponseDueAt: Date | null;
  resolutionDueAt: Date | null;
  dueAt: Date | null;
  breachedAt: Date | null;
  checkAt: Date | null;
  breaches: RecordedBreach[];
}

/** Writes the computed columns of these conversations in one statement. */
export async function writeColumns(tx: Transaction, rows: SlaColumns[]): Promise<void> {
  if (rows.length === 0) return;
  const time = (key: "firstResponseDueAt" | "nextResponseDueAt" | "resolutionDueAt" | "dueAt" | "breachedAt" | "checkAt") =>
    rows.map((row) => row[key]?.toISOString() ?? null);
  await tx.$executeRaw`
    UPDATE conversations c SET sla_policy_id = u.policy_id, sla_first_response_due_at = u.first_due, sla_next_response_due_at = u.next_due,
           sla_resolution_due_at = u.resolution_due, sla_due_at = u.due, sla_breached_at = u.breached, sla_check_at = u.check_at,
           sla_breaches = u.breaches
      FROM unnest(${rows.map((row) => row.id)}::text[], ${rows.map((row) => row.policyId)}::text[], ${time("firstResponseDueAt")}::timestamptz[],
                  ${time("nextResponseDueAt")}::timestamptz[], ${time("resolutionDueAt")}::timestamptz[], ${time("dueAt")}::timestamptz[],
                  ${time("breachedAt")}::timestamptz[], ${time("checkAt")}::timestamptz[], ${rows.map((row) => JSON.stringify(row.breaches))}::jsonb[])
           AS u(id, policy_id, first_due, next_due, resolution_due, due, breached, check_at, breaches)
     WHERE c.id = u.id`;
}

export interface OutcomeRow {
  conversationId: string;
  key: string;
  kind: string;
  policyId: string;
  siteId: string;
  teamId: string | null;
  memberId: string | null;
  startedAt: Date;
  dueAt: Date;
  met: boolean | null;
}

/** Replaces these conversations' outcomes with `rows` (the computation's transaction). */
export async function replaceOutcomes(tx: Transaction, ids: string[], rows: OutcomeRow[]): Promise<void> {
  await tx.$executeRaw`DELETE FROM sla_outcomes WHERE conversation_id = ANY(${ids}::text[])`;
  if (rows.length === 0) return;
  const column = <Key extends keyof OutcomeRow>(key: Key) => rows.map((row) => row[key]);
  await tx.$executeRaw`
    INSERT INTO sla_outcomes (conversation_id, key, kind, policy_id, site_id, team_id, member_id, started_at, due_at, met)
    SELECT * FROM unnest(${column("conversationId")}::text[], ${column("key")}::text[], ${column("kind")}::text[], ${column("policyId")}::text[],
      ${column("siteId")}::text[], ${column("teamId")}::text[], ${column("memberId")}::text[],
      ${rows.map((row) => row.startedAt.toISOString())}::timestamptz[], ${rows.map((row) => row.dueAt.toISOString())}::timestamptz[],
      ${column("met")}::boolean[])`;
}

import { db, sqlExecutor, type SqlExecutor } from "../db/client";
import { availabilityCutoffs, onlineCondition } from "../availability/availability";
import { appendTimelineEvent } from "./timeline";
import { canSignInSql } from "../members/can-sign-in";

// Routing (decisions.md, round 3; docs/routing.md). Round robin gives a new conversation to the
// online member with the fewest open assigned conversations below their max_open, ties to the one
// longest without an assignment. Every assignment made here runs under one transaction-level
// advisory lock, so two instances assigning at once see each other's counts: no cap is exceeded,
// and the guarded UPDATE (still unassigned, or still the same assignee) never lets two take one
// conversation. A pick is one indexed count per online member: the lock is held for milliseconds.

const ROUTING_LOCK = `SELECT pg_advisory_xact_lock(hashtext('parley.routing'))`;

/** Members who may take a conversation now ($1, $2: availability cutoffs), never $3, fewest open first. */
const NEXT_MEMBER = `
  SELECT m.id
  FROM members m
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS open FROM conversations c WHERE c.assigned_member_id = m.id AND c.status = 'open'
  ) load
  WHERE ${canSignInSql("m")} AND NOT m.bot
    AND ${onlineCondition("$1::timestamptz", "$2::timestamptz")}
    AND m.id IS DISTINCT FROM $3
    AND load.open < m.max_open
  ORDER BY load.open, m.last_assigned_at NULLS FIRST, m.id
  LIMIT 1`;

/** Hands conversation $1 to member $2 if it is open and still assigned to $3 (null: unassigned). */
const TAKE_CONVERSATION = `
  WITH taken AS (
    UPDATE conversations SET assigned_member_id = $2, assigned_at = now()
    WHERE id = $1 AND status = 'open' AND assigned_member_id IS NOT DISTINCT FROM $3
    RETURNING id
  )
  UPDATE members SET last_assigned_at = now() WHERE id = $2 AND EXISTS (SELECT 1 FROM taken) RETURNING id`;

/**
 * Open assigned conversations whose visitor has waited $2 minutes past both the assignment and a
 * visitor message that no human (non-bot) public reply followed, at $1, per site setting.
 */
const WAITING_TOO_LONG = `
  SELECT c.id, c.assigned_member_id
  FROM conversations c JOIN sites s ON s.id = c.site_id
  WHERE c.status = 'open' AND c.assigned_member_id IS NOT NULL AND s.reassign_after_minutes IS NOT NULL
    AND COALESCE(c.assigned_at, c.created_at) <= $1::timestamptz - make_interval(mins => s.reassign_after_minutes)
    AND EXISTS (
      SELECT 1 FROM messages v
      WHERE v.conversation_id = c.id AND v.author_type = 'visitor' AND v.kind = 'message'
        AND v.created_at <= $1::timestamptz - make_interval(mins => s.reassign_after_minutes)
        AND NOT EXISTS (
          SELECT 1 FROM messages r JOIN members rm ON rm.id = r.member_id
          WHERE r.conversation_id = c.id AND r.author_type = 'staff' AND r.kind = 'message' AND NOT rm.bot AND r.sequence > v.sequence
        )
    )
  ORDER BY c.assigned_at NULLS FIRST, c.id
  LIMIT $2`;

/** A sweep moves at most this many conversations; the next sweep takes the rest. */
const REASSIGN_BATCH = 100;

export interface RoutingOptions {
  /** Another connection to the same database (a second instance in tests). */
  executor?: SqlExecutor;
  /** The clock: availability and waits are measured at this instant. */
  now?: Date;
}

/** Moves the conversation from `from` (null: unassigned) to the next eligible member; answers who took it. */
async function handOn(executor: SqlExecutor, conversationId: string, from: string | null, now: Date): Promise<string | null> {
  const { tabSince, inputSince } = availabilityCutoffs(now);
  return executor.transaction(async (sql) => {
    await sql.executeSql(ROUTING_LOCK);
    const { rows } = await sql.executeSql(NEXT_MEMBER, [tabSince.toISOString(), inputSince.toISOString(), from]);
    const memberId = (rows[0] as { id: string } | undefined)?.id;
    if (!memberId) return null;
    const taken = await sql.executeSql(TAKE_CONVERSATION, [conversationId, memberId, from]);
    return taken.rowCount > 0 ? memberId : null;
  });
}

/** Round robin for a new conversation: assigned to the next eligible member, or left unassigned. */
export async function assignRoundRobin(conversationId: string, options: RoutingOptions = {}): Promise<string | null> {
  const executor = options.executor ?? (await sqlExecutor());
  const memberId = await handOn(executor, conversationId, null, options.now ?? new Date());
  if (memberId) {
    await appendTimelineEvent(conversationId, "assigned", { actorMemberId: null, assigneeMemberId: memberId, assigneeName: await nameOf(memberId), by: "round_robin" });
  }
  return memberId;
}

const nameOf = async (memberId: string) => (await (await db()).member.findUnique({ where: { id: memberId }, select: { name: true } }))?.name ?? null;

/** The reassign sweep (a periodic job): answers how many conversations moved. */
export async function reassignWaiting(options: RoutingOptions = {}): Promise<number> {
  const executor = options.executor ?? (await sqlExecutor());
  const now = options.now ?? new Date();
  const { rows } = await executor.executeSql(WAITING_TOO_LONG, [now.toISOString(), REASSIGN_BATCH]);
  let moved = 0;
  for (const { id, assigned_member_id: from } of rows as { id: string; assigned_member_id: string }[]) {
    const to = await handOn(executor, id, from, now);
    if (!to) continue; // nobody else can take it now: it stays, and the next sweep looks again
    await appendTimelineEvent(id, "reassigned", { actorMemberId: null, previousMemberId: from, assigneeMemberId: to, assigneeName: await nameOf(to) });
    moved++;
  }
  return moved;
}

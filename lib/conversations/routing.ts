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

/**
 * Members who may take a conversation now ($1, $2: availability cutoffs), never $3, fewest open
 * first. Inside team $4 (docs/teams.md): only its members, each below the team's `max_open` ($5)
 * in open conversations of that team; without a team, any member below their own `max_open`.
 */
const NEXT_MEMBER = `
  SELECT m.id
  FROM members m
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS open FROM conversations c
    WHERE c.assigned_member_id = m.id AND c.status = 'open' AND ($4::text IS NULL OR c.team_id = $4)
  ) load
  WHERE ${canSignInSql("m")} AND NOT m.bot
    AND ${onlineCondition("$1::timestamptz", "$2::timestamptz")}
    AND m.id IS DISTINCT FROM $3
    AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM team_members tm WHERE tm.team_id = $4 AND tm.member_id = m.id))
    AND load.open < COALESCE($5::int, m.max_open)
  ORDER BY load.open, m.last_assigned_at NULLS FIRST, m.id
  LIMIT 1`;

/** How conversation $1 is routed: its team's mode and cap when it has a team, else its site's mode. */
const ROUTE_OF = `
  SELECT c.team_id, t.max_open AS team_max_open, COALESCE(t.assignment, s.assignment) AS assignment
  FROM conversations c JOIN sites s ON s.id = c.site_id LEFT JOIN teams t ON t.id = c.team_id
  WHERE c.id = $1`;

interface Route {
  team_id: string | null;
  team_max_open: number | null;
  assignment: string;
}

const routeOf = async (executor: SqlExecutor, conversationId: string) =>
  (await executor.executeSql(ROUTE_OF, [conversationId])).rows[0] as Route | undefined;

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
  SELECT c.id, c.assigned_member_id, c.team_id, t.max_open AS team_max_open
  FROM conversations c JOIN sites s ON s.id = c.site_id LEFT JOIN teams t ON t.id = c.team_id
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
async function handOn(executor: SqlExecutor, conversationId: string, from: string | null, now: Date, route: Pick<Route, "team_id" | "team_max_open">): Promise<string | null> {
  const { tabSince, inputSince } = availabilityCutoffs(now);
  return executor.transaction(async (sql) => {
    await sql.executeSql(ROUTING_LOCK);
    const { rows } = await sql.executeSql(NEXT_MEMBER, [tabSince.toISOString(), inputSince.toISOString(), from, route.team_id, route.team_max_open]);
    const memberId = (rows[0] as { id: string } | undefined)?.id;
    if (!memberId) return null;
    const taken = await sql.executeSql(TAKE_CONVERSATION, [conversationId, memberId, from]);
    return taken.rowCount > 0 ? memberId : null;
  });
}

/**
 * A new (or newly handed-off, or moved) conversation is routed where its team (or, without a team,
 * its site) uses round robin; answers who took it.
 */
export async function routeNewConversation(conversationId: string, options: RoutingOptions = {}): Promise<string | null> {
  const executor = options.executor ?? (await sqlExecutor());
  const route = await routeOf(executor, conversationId);
  if (route?.assignment !== "round_robin") return null;
  return assignTo(executor, conversationId, route, options.now ?? new Date());
}

/** Round robin for a conversation: assigned to the next eligible member (of its team, if it has one), or left unassigned. */
export async function assignRoundRobin(conversationId: string, options: RoutingOptions = {}): Promise<string | null> {
  const executor = options.executor ?? (await sqlExecutor());
  const route = await routeOf(executor, conversationId);
  if (!route) return null;
  return assignTo(executor, conversationId, route, options.now ?? new Date());
}

async function assignTo(executor: SqlExecutor, conversationId: string, route: Route, now: Date): Promise<string | null> {
  const memberId = await handOn(executor, conversationId, null, now, route);
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
  for (const { id, assigned_member_id: from, ...route } of rows as ({ id: string; assigned_member_id: string } & Route)[]) {
    const to = await handOn(executor, id, from, now, route);
    if (!to) continue; // nobody else can take it now: it stays, and the next sweep looks again
    await appendTimelineEvent(id, "reassigned", { actorMemberId: null, previousMemberId: from, assigneeMemberId: to, assigneeName: await nameOf(to) });
    moved++;
  }
  return moved;
}

/** The handoff (lib/answers/handoff.ts): a conversation a bot holds goes to the next eligible person, as a new one would. */
export async function assignRoundRobinFromBot(conversationId: string, botId: string, options: RoutingOptions = {}): Promise<string | null> {
  const executor = options.executor ?? (await sqlExecutor());
  const route = await routeOf(executor, conversationId);
  if (route?.assignment !== "round_robin") return null;
  const memberId = await handOn(executor, conversationId, botId, options.now ?? new Date(), route);
  if (memberId) {
    await appendTimelineEvent(conversationId, "reassigned", { actorMemberId: null, previousMemberId: botId, assigneeMemberId: memberId, assigneeName: await nameOf(memberId) });
  }
  return memberId;
}

import { db, queryPrepared, type PreparedStatement } from "../db/client";
import { AppError, invalidRequest } from "../core/errors";
import type { OutboxEvent } from "../contracts/notification-events";
import { QUEUES, type JobSpec } from "../jobs/queue";
import { appendTimelineEvent } from "./timeline";

// Snooze (decisions.md round 3): a member puts an open conversation aside until a time; it is open
// again at that time or when the visitor writes, whichever comes first, with an `unsnoozed`
// timeline event. The visitor's send wakes it inside its own append (APPEND_MESSAGE); the time is
// kept by a job of the queue, due at `until`, that wakes every conversation due by then (pg-boss
// runs it once across instances; on Vercel the minute's cron runs it). Whoever wakes it, the
// trigger of migration 20261128060000 writes the event.

export const MAX_SNOOZE_MS = 90 * 24 * 60 * 60 * 1000;

const conversationNotFound = () => new AppError("conversation_not_found", "No conversation has this identifier.");

/** Snoozes an open (or already snoozed) conversation until `until`: in the future, at most 90 days ahead. */
export async function snoozeConversation(conversationId: string, until: Date, actorMemberId: string | null) {
  const now = Date.now();
  if (until.getTime() <= now) throw invalidRequest("until must be in the future.", [{ path: "until", problem: "must be in the future" }]);
  if (until.getTime() > now + MAX_SNOOZE_MS) {
    throw invalidRequest("until must be at most 90 days ahead.", [{ path: "until", problem: "must be at most 90 days ahead" }]);
  }
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM conversations WHERE id = ${conversationId} FOR UPDATE`;
    if (!row) throw conversationNotFound();
    if (row.status === "closed") throw new AppError("conversation_closed", "A closed conversation cannot be snoozed: reopen it first.");
    await tx.conversation.update({ where: { id: conversationId }, data: { status: "snoozed", snoozedUntil: until } });
    await appendTimelineEvent(conversationId, "snoozed", { actorMemberId, until: until.toISOString() }, tx);
    // The outbox's rule queues the wake-up job (queueUnsnoozeCheck), with this commit.
    await tx.notificationEvent.create({ data: { type: "conversation.snoozed", subjectId: conversationId } });
  });
  return snoozeState(conversationId);
}

/** A member opens a snoozed conversation before its time (an open or closed one stays as it is). */
export async function unsnoozeConversation(conversationId: string, actorMemberId: string) {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    // The trigger's event names the member who woke it.
    await tx.$queryRaw`SELECT set_config('parley.actor_member_id', ${actorMemberId}, true)`;
    const { count } = await tx.conversation.updateMany({ where: { id: conversationId, status: "snoozed" }, data: { status: "open", snoozedUntil: null } });
    if (count === 0 && !(await tx.conversation.findUnique({ where: { id: conversationId }, select: { id: true } }))) throw conversationNotFound();
  });
  return snoozeState(conversationId);
}

async function snoozeState(conversationId: string) {
  const row = await (await db()).conversation.findUnique({ where: { id: conversationId }, select: { status: true, snoozedUntil: true } });
  if (!row) throw conversationNotFound();
  return { conversation_id: conversationId, status: row.status as "open" | "snoozed" | "closed", snoozed_until: row.snoozedUntil?.toISOString() ?? null };
}

const WAKE_DUE: PreparedStatement = {
  name: "wake_due_snoozed",
  text: `UPDATE conversations SET status = 'open', snoozed_until = NULL WHERE status = 'snoozed' AND snoozed_until <= clock_timestamp() RETURNING id`,
};

/** Opens every snoozed conversation whose time has come; answers how many. Safe to run anywhere, any time. */
export async function wakeDueSnoozed(): Promise<number> {
  return (await queryPrepared<{ id: string }>(WAKE_DUE, [])).length;
}

/** The rule's consumer (lib/notifications/rules.ts): a snooze queues the wake-up job for its time. */
export async function queueUnsnoozeCheck(event: OutboxEvent): Promise<{ jobs: JobSpec[] } | null> {
  const row = await (await db()).conversation.findUnique({ where: { id: event.subjectId }, select: { status: true, snoozedUntil: true } });
  if (row?.status !== "snoozed" || !row.snoozedUntil) return null;
  return { jobs: [{ name: QUEUES.unsnooze, data: { conversationId: event.subjectId }, startAfter: row.snoozedUntil }] };
}

import type { OutboxEvent } from "../contracts/notification-events";
import { db } from "../db/client";
import type { JobContext } from "../jobs/context";
import { QUEUES, type JobSpec } from "../jobs/queue";
import { pushToMembers } from "./send-push";
import { canSignInSql } from "../members/can-sign-in";
import { visibleConversationSql } from "../teams/visibility";
import { visibleToVisitorSql } from "../contracts/events";

// What is pushed (decisions.md, round 3): a new conversation to every member who can sign in, may
// see it (docs/teams.md) and has no inbox tab open (none seen for the staff alerts' idle time), a mention to the member
// mentioned and an assignment to the assignee (whatever tabs they have: it is about them).

export type PushKind = "conversation_started" | "assigned" | "mentioned" | "sla_breached";

/** The rule's consumer (lib/notifications/rules.ts) for conversation.started: a push job, now. */
export const queueNewConversationPush = (event: OutboxEvent): { jobs: JobSpec[] } => ({
  jobs: [pushJob("conversation_started", event.subjectId)],
});

/** The rule's consumer for mention.created: a push to the member mentioned (whatever tabs they have open). */
export async function queueMentionPush(event: OutboxEvent): Promise<{ jobs: JobSpec[] } | null> {
  const mention = await (await db()).messageMention.findUnique({
    where: { id: event.subjectId },
    select: { memberId: true, message: { select: { conversationId: true } } },
  });
  return mention ? { jobs: [pushJob("mentioned", mention.message.conversationId, mention.memberId)] } : null;
}

/**
 * The rule's consumer for conversation.assigned (its subject: the `assigned` / `reassigned` timeline
 * line): a push to the new assignee, unless they assigned it to themselves or it was unassigned.
 */
export async function queueAssignmentPush(event: OutboxEvent): Promise<{ jobs: JobSpec[] } | null> {
  const line = await (await db()).message.findUnique({ where: { id: event.subjectId }, select: { conversationId: true, details: true } });
  const details = (line?.details ?? {}) as { assigneeMemberId?: unknown; actorMemberId?: unknown };
  const assignee = typeof details.assigneeMemberId === "string" ? details.assigneeMemberId : null;
  if (!line || !assignee || assignee === details.actorMemberId) return null;
  return { jobs: [pushJob("assigned", line.conversationId, assignee)] };
}

/** A push job about a conversation; `memberId` for an assignment or a mention. */
export const pushJob = (kind: PushKind, conversationId: string, memberId?: string): JobSpec => ({
  name: QUEUES.push,
  data: { kind, conversationId, ...(memberId ? { memberId } : {}) },
});

const SUMMARY = `
  SELECT c."id", c."visitor_name", s."name" AS site_name,
         (SELECT m."body" FROM "messages" m
           WHERE m."conversation_id" = c."id" AND m."author_type" = 'visitor' AND ${visibleToVisitorSql("m")}
           ORDER BY m."sequence" LIMIT 1) AS first_message
    FROM "conversations" c JOIN "sites" s ON s."id" = c."site_id"
   WHERE c."id" = $1`;

// Who can sign in, has had no inbox tab open lately and may see conversation $2 (docs/teams.md).
const AWAY_MEMBERS = `
  SELECT m."id" FROM "members" m JOIN "conversations" c ON c."id" = $2
   WHERE ${canSignInSql("m")}
     AND (m."inbox_active_at" IS NULL OR m."inbox_active_at" < $1::timestamptz)
     AND ${visibleConversationSql({ row: "c", member: 'm."id"', role: 'm."role"' })}`;

/** The push queue's handler: one job at a time (each is a few requests to push services). */
export async function runPushJob(context: JobContext, job: Record<string, string>): Promise<void> {
  const kind = job.kind as PushKind;
  const prisma = await db();
  const [conversation] = await prisma.$queryRawUnsafe<{ id: string; visitor_name: string | null; site_name: string; first_message: string | null }[]>(
    SUMMARY,
    job.conversationId,
  );
  if (!conversation) return;
  const who = conversation.visitor_name ?? "A visitor";
  const recipients =
    kind === "conversation_started"
      ? (await prisma.$queryRawUnsafe<{ id: string }[]>(AWAY_MEMBERS, new Date(Date.now() - context.timings.staffIdleMs), conversation.id)).map((row) => row.id)
      : [job.memberId!];
  const title =
    kind === "conversation_started"
      ? `New conversation on ${conversation.site_name}`
      : kind === "assigned"
        ? `Assigned to you: ${who}`
        : kind === "sla_breached"
          ? `SLA breached: ${who}`
          : `You were mentioned: ${who}`;
  await pushToMembers(recipients, {
    title,
    body: kind === "conversation_started" ? `${who}: ${conversation.first_message ?? "(no message yet)"}` : kind === "sla_breached" ? (job.detail ?? "") : (conversation.first_message ?? ""),
    url: `/inbox/conversations/${encodeURIComponent(conversation.id)}`,
    tag: conversation.id,
  });
}

import { appendTimelineEvent } from "../conversations/timeline";
import { computeAllDue, type BreachRecorder } from "../sla/refresh";

// The SLA sweep (docs/sla.md): a job of the queue every slaSweepMs (lib/notifications/job-handlers.ts;
// on Vercel the minute's cron round runs it), never a visitor's request. It computes what triggers
// marked and every conversation whose next check is due, and records each new breach: the staff
// timeline event `sla_breached` and the outbox's `sla.breached` (webhooks and the assignee's alert,
// lib/notifications/rules.ts) in the computing transaction, then the rules hook after the commit.

const recordBreach: BreachRecorder = async (tx, breach) => {
  const details = { actorMemberId: null, kind: breach.kind, at: breach.at.toISOString(), why: breach.why, policyId: breach.policyId, policyName: breach.policyName };
  const timelineEventId = await appendTimelineEvent(breach.conversationId, "sla_breached", details, tx);
  await tx.notificationEvent.create({ data: { type: "sla.breached", subjectId: timelineEventId } });
  return timelineEventId;
};

/** Answers how many conversations it computed and how many breaches it recorded. */
export async function sweepSla(now = new Date()): Promise<{ computed: number; breaches: number }> {
  const { computed, breaches } = await computeAllDue(now, recordBreach);
  return { computed, breaches: breaches.length };
}

import { db } from "../db/client";
import type { SqlQuery } from "../db/client";
import type { OutboxEvent } from "../contracts/notification-events";
import { RULE_EVENTS, type RuleEvent } from "../contracts/rules";
import type { JobContext } from "../jobs/context";
import { QUEUES, type JobSpec } from "../jobs/queue";
import { RULES_BOT_ID } from "./actions";
import { runRulesForEvent, type RuleEventInput } from "./run-rules";
import { idleCandidates } from "./statements";
import { MESSAGE_CREATED } from "../contracts/events";

// Where rules hear of events (docs/rules.md, "Where rules run"). The outbox's triggers write an
// event in the transaction of the change; the dispatcher hands it to `queueRuleEvents` (the rules
// table, lib/notifications/rules.ts), which queues a job of the "conversation-rules" queue when an
// enabled rule listens; the job runs the rules. conversation.idle comes from the reassign sweep's
// minute; sla.breached from the SLA sweep's outbox event (its subject: the breach's timeline line).
//
// Loops cannot happen: no rule action is an event for rules. A rule never starts a conversation
// and never writes a visitor's message (message.created is the visitor's); it never reopens; its
// close is marked as the rule's (details.rule on the close's system message) and heard by no rule;
// its notes and replies do not end a quiet spell. And a rule runs at most once per event key.

/** The facts of the batch the consumer needs: which events some enabled rule listens to. */
export interface RuleListeners {
  ruleEvents: ReadonlySet<string>;
}

/** The job that runs an event's rules. */
export const ruleEventJob = (input: RuleEventInput): JobSpec => ({
  name: QUEUES.rules,
  data: { event: input.event, conversationId: input.conversationId, key: input.key, ...(input.messageId ? { messageId: input.messageId } : {}), ...(input.ruleId ? { ruleId: input.ruleId } : {}) },
});

/**
 * The entry point for other parts (the SLA check's breach): queues the event's rules in `sql`'s
 * transaction, so they run after it commits. `key` names the event (e.g. the breach), so the
 * same event queued twice runs each rule once.
 */
export async function enqueueRuleEvent(context: Pick<JobContext, "addJobs">, sql: SqlQuery, input: RuleEventInput): Promise<void> {
  await context.addJobs(sql, [ruleEventJob(input)]);
}

const CLOSE_EVENTS: Record<string, RuleEvent> = { conversation_closed: "conversation.closed", conversation_reopened: "conversation.reopened" };

/** The outbox consumer: a job for the rules of the event, when an enabled rule listens and no rule caused it. */
export async function queueRuleEvents(event: OutboxEvent, batch: RuleListeners & { messages: Map<string, { conversationId: string; authorType: string }> }): Promise<{ jobs: JobSpec[] } | null> {
  if (batch.ruleEvents.size === 0) return null;
  const job = (input: Omit<RuleEventInput, "key">) => (batch.ruleEvents.has(input.event) ? { jobs: [ruleEventJob({ ...input, key: event.id })] } : null);
  if (event.type === "conversation.started") return job({ event: "conversation.created", conversationId: event.subjectId });
  if (event.type === "sla.breached") {
    if (!batch.ruleEvents.has("sla.breached")) return null;
    const line = await (await db()).message.findUnique({ where: { id: event.subjectId }, select: { conversationId: true } });
    return line ? job({ event: "sla.breached", conversationId: line.conversationId }) : null;
  }
  if (event.type !== MESSAGE_CREATED) return null;
  const message = batch.messages.get(event.subjectId);
  if (!message) return null;
  if (message.authorType === "visitor") return job({ event: MESSAGE_CREATED, conversationId: message.conversationId, messageId: event.subjectId });
  if (message.authorType !== "system" || !(batch.ruleEvents.has("conversation.closed") || batch.ruleEvents.has("conversation.reopened"))) return null;
  const row = await (await db()).message.findUnique({ where: { id: event.subjectId }, select: { event: true, details: true } });
  const ruleEvent = row?.event ? CLOSE_EVENTS[row.event] : undefined;
  const byRule = typeof row?.details === "object" && row.details !== null && "rule" in row.details;
  if (!ruleEvent || byRule) return null;
  return job({ event: ruleEvent, conversationId: message.conversationId });
}

/** Conversations whose rules run at once within one batch of jobs. */
const CONCURRENT_CONVERSATIONS = 4;

/**
 * The queue's handler. Each conversation's jobs run one after the other, in the order they were
 * queued (a rule sees what the rules of the event before did); different conversations' jobs run
 * side by side, a few at a time: a job waits mostly on the database, so one after the other a
 * batch took as long as all its round trips together. The batch fails (and is retried: each rule
 * runs at most once per event) only after every conversation's jobs have ended.
 */
export async function runRuleJobs(jobs: Record<string, string>[]): Promise<void> {
  const byConversation = new Map<string, RuleEventInput[]>();
  for (const job of jobs) {
    if (!(RULE_EVENTS as readonly string[]).includes(job.event!) || !job.conversationId || !job.key) continue;
    const input: RuleEventInput = { event: job.event as RuleEvent, conversationId: job.conversationId, key: job.key, messageId: job.messageId ?? null, ruleId: job.ruleId };
    const queued = byConversation.get(input.conversationId);
    if (queued) queued.push(input);
    else byConversation.set(input.conversationId, [input]);
  }
  const queue = [...byConversation.values()];
  const runNext = async (): Promise<void> => {
    for (let inputs = queue.shift(); inputs; inputs = queue.shift()) {
      for (const input of inputs) await runRulesForEvent(input);
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(CONCURRENT_CONVERSATIONS, queue.length) }, runNext));
  const failure = results.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
}

/** At most this many quiet conversations per minute (the rest the next minute). */
const IDLE_BATCH = 200;

/** conversation.idle: runs each idle rule once on each quiet spell that reached its minutes; answers how many rules acted. */
export async function checkIdleRules(): Promise<number> {
  const candidates = await idleCandidates(await db(), RULES_BOT_ID, IDLE_BATCH);
  let acted = 0;
  for (const candidate of candidates) {
    acted += await runRulesForEvent({ event: "conversation.idle", conversationId: candidate.conversation_id, key: `idle:${candidate.quiet_after}`, ruleId: candidate.rule_id });
  }
  return acted;
}

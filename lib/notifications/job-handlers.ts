import { runVisitorFollowUp } from "../email/follow-ups";
import { sendStoredEmails } from "../email/sending/outbox";
import { runStaffAlerts } from "../email/staff-alerts";
import { wakeDueSnoozed } from "../conversations/snooze";
import type { JobContext } from "../jobs/context";
import { QUEUES, type JobSpec, type QueueName } from "../jobs/queue";
import { runPushJob } from "../push/conversation-pushes";
import { reassignWaiting } from "../conversations/routing";
import { runDailyRetention } from "../privacy/retention";
import { checkIdleRules, runRuleJobs } from "../rules/rule-events";
import { log } from "../core/log";
import { sweepSla } from "./sla-sweep";

// What each queue's jobs do, shared by the long-lived worker (./worker.ts) and the serverless
// rounds (./round.ts). Each handler takes a whole batch: the email and staff-alert ones in a few
// statements, whatever its size (docs/performance.md, step 26). A batch succeeds or fails as one;
// each handler is safe to run again.

export const JOB_BATCH_SIZE = 50;

type Handler = (context: JobContext, data: Record<string, string>[]) => Promise<unknown>;

export const JOB_HANDLERS: Record<QueueName, Handler> = {
  [QUEUES.email]: (_context, data) => sendStoredEmails(data.map((job) => job.emailId!)),
  [QUEUES.staffAlert]: (context, data) => runStaffAlerts(context, data.map((job) => job.conversationId!)),
  [QUEUES.followUp]: (context, data) => Promise.all(data.map((job) => runVisitorFollowUp(context, job.conversationId!))),
  [QUEUES.push]: (context, data) => Promise.all(data.map((job) => runPushJob(context, job))),
  [QUEUES.reassign]: async (context) => {
    await reassignWaiting({ executor: context.executor });
    // The same minute checks the conversation.idle rules (docs/rules.md); a failure waits for the next minute.
    await checkIdleRules().catch((error: unknown) => log.error("idle_rules_failed", { error }));
    await context.addJobs(context.executor, [reassignSweep(new Date(Date.now() + context.timings.reassignSweepMs))]);
  },
  [QUEUES.unsnooze]: () => wakeDueSnoozed(),
  [QUEUES.retention]: () => runDailyRetention(),
  [QUEUES.rules]: (_context, data) => runRuleJobs(data),
  [QUEUES.sla]: async (context) => {
    await sweepSla();
    await context.addJobs(context.executor, [slaSweep(new Date(Date.now() + context.timings.slaSweepMs))]);
  },
};

/** The SLA sweep's job, due at `at` (lib/sla/refresh.ts): periodic, it queues its own next run (at most one waits). */
export const slaSweep = (at: Date): JobSpec => ({ name: QUEUES.sla, data: {}, startAfter: at, singletonKey: "sweep" });

/** The reassign sweep's job, due at `at`: a periodic job that queues its own next run (at most one waits). */
export const reassignSweep = (at: Date): JobSpec => ({ name: QUEUES.reassign, data: {}, startAfter: at, singletonKey: "sweep" });

/** The retention job (lib/privacy/retention.ts): at most one waits; it runs its work once per UTC day. */
export const retentionJob: JobSpec = { name: QUEUES.retention, data: {}, singletonKey: "daily" };

import PgBoss from "pg-boss";
import type { SqlExecutor, SqlQuery } from "../db/client";
import type { NotificationTimings } from "./timings";

// The durable queue: pg-boss 10 (docs/notifications.md says why), over the service's own
// connection (PostgreSQL pool or the embedded PGlite), in its own schema "pgboss".

export const QUEUES = {
  email: "email-send",
  staffAlert: "staff-alert",
  followUp: "visitor-follow-up",
  push: "web-push",
  reassign: "conversation-reassign",
  unsnooze: "conversation-unsnooze",
  retention: "retention",
  rules: "conversation-rules",
  sla: "sla-sweep",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

// Webhook attempts were jobs of this queue until they were claimed from their own table
// (lib/webhooks/delivery-loop.ts); a database that still has it loses it at the next start.
const RETIRED_QUEUES = ["webhook-delivery"];

export interface JobSpec {
  name: QueueName;
  data: Record<string, unknown>;
  startAfter?: Date;
  /** On a "short" queue: at most one job with this key waits at a time; more are dropped. */
  singletonKey?: string;
}

/**
 * `supervise`: run pg-boss's maintenance (expiring jobs whose worker died, archiving) on its own
 * timer; a serverless round has no timer and calls `maintain()` from the cron instead.
 */
export function createBoss(executor: SqlExecutor, timings: NotificationTimings, { supervise = true } = {}): PgBoss {
  return new PgBoss({
    db: executor,
    schema: "pgboss",
    migrate: true,
    supervise,
    schedule: false, // no cron jobs; the dispatcher, the handlers and the worker's retention timer schedule what they need
    maintenanceIntervalSeconds: timings.maintenanceSeconds,
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: 7,
  });
}

/** How often each worker asks for the retention job; the job itself runs once per UTC day (lib/privacy/retention.ts). */
export const RETENTION_CHECK_MS = 3_600_000;

/** Creates the queues, or brings their retry settings up to date. Several instances may race here. */
export async function ensureQueues(boss: PgBoss, timings: NotificationTimings): Promise<void> {
  const expireInSeconds = timings.jobExpirySeconds;
  const settings: Record<QueueName, PgBoss.Queue> = {
    [QUEUES.email]: {
      name: QUEUES.email,
      retryLimit: 20,
      retryDelay: timings.emailRetryDelaySeconds,
      retryBackoff: true,
      expireInSeconds,
    },
    // One waiting check per conversation (keyed by it) covers every visitor message until it runs:
    // a busy conversation costs one job, not one per message.
    [QUEUES.staffAlert]: { name: QUEUES.staffAlert, policy: "short", retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds },
    [QUEUES.followUp]: { name: QUEUES.followUp, retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds },
    // A push is worth little late: a few quick retries, then it is dropped.
    [QUEUES.push]: { name: QUEUES.push, retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds },
    // The reassign sweep (docs/routing.md): one waiting job at a time across instances; each run queues the next.
    [QUEUES.reassign]: { name: QUEUES.reassign, policy: "short", retryLimit: 3, retryDelay: 5, expireInSeconds },
    // Each job wakes every conversation due by then, so a late or lost one is covered by the next.
    [QUEUES.unsnooze]: { name: QUEUES.unsnooze, retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds },
    // At most one waiting (keyed); it works in short batches, so it may take long.
    [QUEUES.retention]: { name: QUEUES.retention, policy: "short", retryLimit: 3, retryDelay: 600, expireInSeconds: 6 * 3600 },
    // An event's rules (docs/rules.md): a retry runs only the rules that had not claimed their run.
    [QUEUES.rules]: { name: QUEUES.rules, retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds },
    // The SLA sweep (docs/sla.md): one waiting job at a time across instances; each run queues the next.
    [QUEUES.sla]: { name: QUEUES.sla, policy: "short", retryLimit: 3, retryDelay: 5, expireInSeconds },
  };
  for (const name of RETIRED_QUEUES) if (await boss.getQueue(name)) await boss.deleteQueue(name);
  for (const [name, options] of Object.entries(settings)) {
    if (await boss.getQueue(name)) {
      await boss.updateQueue(name, options);
      continue;
    }
    try {
      await boss.createQueue(name, options);
    } catch (error) {
      if (!(await boss.getQueue(name))) throw error; // another instance created it meanwhile: fine
    }
  }
}

/** Adds jobs through `sql`, so they commit (or not) with the caller's transaction. */
export async function addJobs(boss: PgBoss, sql: SqlQuery, jobs: JobSpec[]): Promise<void> {
  if (jobs.length === 0) return;
  await boss.insert(
    jobs.map((job) => ({ name: job.name, data: job.data, startAfter: job.startAfter, singletonKey: job.singletonKey })),
    { db: sql } as PgBoss.InsertOptions & { db: SqlQuery },
  );
}

import PgBoss from "pg-boss";
import type { SqlExecutor, SqlQuery } from "../db";
import type { NotificationTimings } from "./timings";

// The durable queue: pg-boss 10 (docs/notifications.md says why), over the service's own
// connection (PostgreSQL pool or the embedded PGlite), in its own schema "pgboss".

export const QUEUES = {
  webhook: "webhook-delivery",
  email: "email-send",
  staffAlert: "staff-alert",
  followUp: "visitor-follow-up",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface JobSpec {
  name: QueueName;
  data: Record<string, unknown>;
  startAfter?: Date;
}

export function createBoss(executor: SqlExecutor, timings: NotificationTimings): PgBoss {
  return new PgBoss({
    db: executor,
    schema: "pgboss",
    migrate: true,
    supervise: true,
    schedule: false, // no cron jobs; the dispatcher and the handlers schedule what they need
    maintenanceIntervalSeconds: timings.maintenanceSeconds,
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: 7,
  });
}

/** Creates the queues, or brings their retry settings up to date. Several instances may race here. */
export async function ensureQueues(boss: PgBoss, timings: NotificationTimings): Promise<void> {
  const expireInSeconds = timings.jobExpirySeconds;
  const settings: Record<QueueName, PgBoss.Queue> = {
    // A failed HTTP attempt is not a job failure (the handler schedules the next attempt itself);
    // these retries only cover a worker that died mid-job.
    [QUEUES.webhook]: { name: QUEUES.webhook, retryLimit: 20, retryDelay: 1, expireInSeconds },
    [QUEUES.email]: {
      name: QUEUES.email,
      retryLimit: 20,
      retryDelay: timings.emailRetryDelaySeconds,
      retryBackoff: true,
      expireInSeconds,
    },
    [QUEUES.staffAlert]: { name: QUEUES.staffAlert, retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds },
    [QUEUES.followUp]: { name: QUEUES.followUp, retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds },
  };
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
    jobs.map((job) => ({ name: job.name, data: job.data, startAfter: job.startAfter })),
    { db: sql } as PgBoss.InsertOptions & { db: SqlQuery },
  );
}

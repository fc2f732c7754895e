import type { SqlExecutor, SqlQuery } from "../db/client";
import type { JobSpec } from "./queue";
import type { NotificationTimings } from "./timings";

/**
 * What a job handler gets: the database, the rules' delays, a way to add jobs in a transaction,
 * and a way to have webhook deliveries claimed now (after the commit that made them due).
 */
export interface JobContext {
  executor: SqlExecutor;
  timings: NotificationTimings;
  addJobs(sql: SqlQuery, jobs: JobSpec[]): Promise<void>;
  wakeDeliveries(): void;
}

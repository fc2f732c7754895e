import type PgBoss from "pg-boss";
import { sqlExecutor, type SqlExecutor } from "../db/client";
import { closeSmtpTransport } from "../email/sending/transport";
import { throttledErrorLog } from "../core/log";
import { startDeliveryLoop } from "../webhooks/delivery-loop";
import { closeWebhookConnections } from "../webhooks/keep-alive-agents";
import type { JobContext } from "../jobs/context";
import { startDispatchLoop } from "./dispatcher";
import { addJobs, createBoss, ensureQueues, QUEUES, RETENTION_CHECK_MS, type QueueName } from "../jobs/queue";
import { JOB_BATCH_SIZE, JOB_HANDLERS, reassignSweep, retentionJob, slaSweep } from "./job-handlers";
import { resolveTimings, type NotificationTimings } from "../jobs/timings";

// The notification worker: the dispatcher loop over the outbox, the webhook delivery loop, and
// pg-boss workers for each queue. Every service instance may run one; pg-boss hands each job to
// one of them, and each due delivery is claimed by one of them.

export interface NotificationWorker {
  /** Stops taking work. `abrupt` leaves jobs in flight as a crash would (tests). */
  stop(options?: { abrupt?: boolean }): Promise<void>;
  /** Dispatches pending events now instead of at the next poll (tests, benchmarks). */
  dispatchNow(): Promise<number>;
}

export interface WorkerOptions {
  timings?: Partial<NotificationTimings>;
  /** Another connection to the same database (a second instance in tests). */
  executor?: SqlExecutor;
}

// The kept connections (webhook agents, the SMTP pool) belong to the process, not to one worker:
// the last worker of the process to stop closes them (tests and benchmarks run several).
let runningWorkers = 0;

/** Promises still pending among those passed to track(). */
function inFlightCounter() {
  let pending = 0;
  return {
    count: () => pending,
    track<T>(promise: Promise<T>): Promise<T> {
      pending++;
      return promise.finally(() => pending--);
    },
  };
}

export async function startNotificationWorker(options: WorkerOptions = {}): Promise<NotificationWorker> {
  const timings = resolveTimings(options.timings);
  const executor = options.executor ?? (await sqlExecutor());
  // pg-boss 10 does not await a batch's complete or fail, and stops without waiting for a worker
  // whose fetch is in flight (that fetch's jobs then still run): its stop can return before its last
  // queries, and the caller may close the pool under them. stop() waits for both counts to reach 0.
  const bossQueries = inFlightCounter();
  const batches = inFlightCounter();
  const boss = createBoss(
    { executeSql: (text, values) => bossQueries.track(executor.executeSql(text, values)), transaction: (work) => executor.transaction(work) },
    timings,
  );
  const logError = throttledErrorLog();
  boss.on("error", (error) => logError("job_queue_error", error));
  await boss.start();
  await ensureQueues(boss, timings);
  await addJobs(boss, executor, [reassignSweep(new Date()), slaSweep(new Date())]); // dropped while another instance's sweep waits

  const workerIds = new Map<QueueName, string>();
  const deliveries = startDeliveryLoop(executor, timings, logError);
  const context: JobContext = {
    executor,
    timings,
    addJobs: async (sql, jobs) => {
      await addJobs(boss, sql, jobs);
      // Wake this instance's workers for jobs due now; other instances find them at their next poll.
      for (const name of new Set(jobs.filter((job) => !job.startAfter || job.startAfter.getTime() <= Date.now()).map((job) => job.name))) {
        const id = workerIds.get(name);
        if (id) setImmediate(() => boss.notifyWorker(id));
      }
    },
    wakeDeliveries: () => deliveries.wake(),
  };

  for (const name of Object.values(QUEUES)) {
    const id: string = await boss.work<Record<string, string>>(
      name,
      { batchSize: JOB_BATCH_SIZE, pollingIntervalSeconds: timings.jobPollMs / 1000 },
      async (jobs: PgBoss.Job<Record<string, string>>[]) => {
        // The batch succeeds or fails as one; a failure is rare (database or SMTP down).
        await batches.track(JOB_HANDLERS[name](context, jobs.map((job) => job.data)));
        // A full batch: more are probably waiting, so fetch again at once instead of after the poll interval.
        if (jobs.length === JOB_BATCH_SIZE) boss.notifyWorker(id);
      },
    );
    workerIds.set(name, id);
  }

  const dispatcher = startDispatchLoop(context, logError);
  // Every instance asks for the retention job a while after its start and then hourly (one waits
  // at a time, keyed); the job claims its UTC day before it works, so it runs once a day across instances.
  const askForRetention = () =>
    addJobs(boss, executor, [retentionJob]).catch((error) => logError("retention_queue_error", error));
  let retentionTimer: NodeJS.Timeout = setTimeout(() => {
    void askForRetention();
    retentionTimer = setInterval(askForRetention, RETENTION_CHECK_MS).unref();
  }, timings.retentionFirstAskMs).unref();
  let stopped = false;
  runningWorkers++;

  return {
    dispatchNow: dispatcher.dispatchNow,
    stop: async ({ abrupt = false } = {}) => {
      const wasRunning = !stopped;
      stopped = true;
      clearTimeout(retentionTimer); // Node's clearTimeout clears an interval too
      await dispatcher.stop();
      await deliveries.stop({ abrupt });
      const timeoutMs = abrupt ? 1_000 : timings.webhookTimeoutMs + 5_000;
      const stopping = Date.now();
      await boss.stop({ graceful: !abrupt, wait: true, timeout: timeoutMs });
      // Checked a macrotask apart: a fetch's end starts its batch, and a batch's end starts its
      // complete, in the microtasks between.
      while ((bossQueries.count() > 0 || batches.count() > 0) && Date.now() - stopping < timeoutMs) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      if (wasRunning && --runningWorkers === 0) {
        closeWebhookConnections();
        closeSmtpTransport();
      }
    },
  };
}

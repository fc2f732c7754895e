import type PgBoss from "pg-boss";
import { throttledErrorLog } from "../core/log";
import { processSingleton } from "../core/process-registry.mjs";
import { sqlExecutor, type SqlExecutor } from "../db/client";
import type { JobContext } from "../jobs/context";
import { addJobs, createBoss, ensureQueues, QUEUES, type QueueName } from "../jobs/queue";
import { DEFAULT_TIMINGS } from "../jobs/timings";
import { deliverDueOnce } from "../webhooks/delivery-loop";
import { DISPATCH_BATCH, dispatchEvents } from "./dispatcher";
import { JOB_BATCH_SIZE, JOB_HANDLERS, reassignSweep, retentionJob, slaSweep } from "./job-handlers";

// Delivery without a long-lived worker (Vercel: docs/notifications.md, "Serverless"). A round does,
// once and to the end, what the worker's loops do all the time: dispatch the outbox, run the due
// jobs (staff alerts and follow-ups first, so the emails they store are sent in the same round),
// then attempt the due webhook deliveries and record their answers. Every step claims its rows
// atomically (FOR UPDATE SKIP LOCKED, pg-boss's fetch), so rounds in several functions, the cron
// and a long-lived worker on the same database never handle a row twice.

export interface RoundCounts {
  /** Outbox events dispatched. */
  events: number;
  /** Queue jobs run (staff alerts, follow-ups, email sends). */
  jobs: number;
  /** Webhook attempts made. */
  deliveries: number;
}

// Jobs whose results feed later queues come first: a staff alert stores emails with send jobs.
const QUEUE_ORDER: readonly QueueName[] = [QUEUES.rules, QUEUES.staffAlert, QUEUES.followUp, QUEUES.unsnooze, QUEUES.push, QUEUES.email, QUEUES.reassign, QUEUES.sla];
// A round stops dispatching after this many full batches (the cron drains the rest in more rounds).
const MAX_DISPATCH_BATCHES = 5;

interface RoundState {
  /** pg-boss over the executor it was started on (a test's next database gets a new one). */
  queue: { executor: SqlExecutor; boss: Promise<PgBoss> } | null;
  /** The round running in this process, and whether another was asked for meanwhile. */
  running: Promise<void> | null;
  again: boolean;
}

const state = processSingleton<RoundState>("notification-rounds", () => ({ queue: null, running: null, again: false }));
const logError = throttledErrorLog();

/** pg-boss without timers of its own, started once per process (and database): its schema and queues exist after. */
async function roundContext(): Promise<{ context: JobContext; boss: PgBoss }> {
  const executor = await sqlExecutor();
  if (state.queue?.executor !== executor) {
    const boss = (async () => {
      const started = createBoss(executor, DEFAULT_TIMINGS, { supervise: false });
      started.on("error", (error) => logError("job_queue_error", error));
      await started.start();
      await ensureQueues(started, DEFAULT_TIMINGS);
      await addJobs(started, executor, [reassignSweep(new Date()), slaSweep(new Date())]); // dropped while a sweep waits
      return started;
    })();
    state.queue = { executor, boss };
    boss.catch(() => {
      if (state.queue?.boss === boss) state.queue = null; // the next round tries again
    });
  }
  const boss = await state.queue.boss;
  const context: JobContext = {
    executor,
    timings: DEFAULT_TIMINGS,
    addJobs: (sql, jobs) => addJobs(boss, sql, jobs),
    wakeDeliveries: () => {}, // the round attempts the due deliveries at its end
  };
  return { context, boss };
}

/** One round: the outbox, the due jobs, the due webhook deliveries; answers what it handled. */
export async function runDeliveryRound(): Promise<RoundCounts> {
  const { context, boss } = await roundContext();
  const counts: RoundCounts = { events: 0, jobs: 0, deliveries: 0 };
  for (let batch = 0; batch < MAX_DISPATCH_BATCHES; batch++) {
    const handled = await dispatchEvents(context);
    counts.events += handled;
    if (handled < DISPATCH_BATCH) break;
  }
  for (const name of QUEUE_ORDER) counts.jobs += await runDueJobs(boss, context, name);
  counts.deliveries = await deliverDueOnce(context.executor, context.timings, logError);
  return counts;
}

/** One batch of a queue's due jobs, completed together, or failed together (pg-boss retries them later). */
async function runDueJobs(boss: PgBoss, context: JobContext, name: QueueName): Promise<number> {
  const jobs = await boss.fetch<Record<string, string>>(name, { batchSize: JOB_BATCH_SIZE });
  if (jobs.length === 0) return 0;
  const ids = jobs.map((job) => job.id);
  try {
    await JOB_HANDLERS[name](context, jobs.map((job) => job.data));
  } catch (error) {
    logError("notification_round_job_failed", error);
    await boss.fail(name, ids);
    return jobs.length;
  }
  await boss.complete(name, ids);
  return jobs.length;
}

/**
 * After a request that may have written events (serverless only): one round, or one more after
 * the round this process is running (whose claims may have missed this request's events).
 * Resolves when this process has no round left to run; never rejects.
 */
export function requestDeliveryRound(): Promise<void> {
  if (state.running) {
    state.again = true;
    return state.running;
  }
  const running = (async () => {
    do {
      state.again = false;
      await runDeliveryRound().catch((error: unknown) => logError("notification_round_failed", error));
    } while (state.again);
  })().finally(() => {
    state.running = null;
  });
  state.running = running;
  return running;
}

/**
 * The cron's work: pg-boss's maintenance (jobs whose function was frozen or ended mid-run are
 * expired and retried), the retention job (its work runs once per UTC day: on the other minutes it
 * finds the day claimed and ends), then rounds until one finds nothing or `budgetMs` is spent.
 */
export async function drainDeliveries(budgetMs: number): Promise<RoundCounts & { rounds: number }> {
  const until = Date.now() + budgetMs;
  const { boss, context } = await roundContext();
  await boss.maintain();
  // Due a second ago: pg-boss fetches jobs whose start_after < now(), and on PGlite, whose clock
  // ticks in milliseconds, a job inserted in the same millisecond as the fetch was not yet due.
  await addJobs(boss, context.executor, [{ ...retentionJob, startAfter: new Date(Date.now() - 1_000) }]);
  await runDueJobs(boss, context, QUEUES.retention); // not counted: it is the cron's own, not delivery
  const total = { events: 0, jobs: 0, deliveries: 0, rounds: 0 };
  do {
    const counts = await runDeliveryRound();
    total.rounds++;
    total.events += counts.events;
    total.jobs += counts.jobs;
    total.deliveries += counts.deliveries;
    if (counts.events + counts.jobs + counts.deliveries === 0) break;
  } while (Date.now() < until);
  return total;
}

import type { OutboxEvent } from "../contracts/notification-events";
import type { ErrorLog } from "../core/log";
import type { SqlRow } from "../core/sql-row";
import type { SqlExecutor } from "../db/client";
import { storeEmails } from "../email/sending/outbox";
import type { NotificationEvent } from "../generated/prisma/client";
import { claimLoop } from "../jobs/claim-loop";
import type { JobContext } from "../jobs/context";
import { storeDeliveries } from "../webhooks/webhook-consumer";
import { loadBatchFacts } from "./batch-facts";
import { consumersOf, type Effects } from "./rules";

// The dispatcher turns the outbox rows the triggers wrote (notification_events) into what the
// rules table (./rules.ts) says they cause: webhook deliveries (claimed by
// lib/webhooks/delivery-loop.ts), emails and jobs. A batch is claimed for a while (another
// instance takes it over if this one dies), the facts its consumers share are read once, each
// event goes to its consumers, then one transaction deletes the events and writes what they
// answered — only for the events it deleted, so an event whose claim ran out and was taken by
// another instance meanwhile is dispatched once all the same.

export const DISPATCH_BATCH = 200;
const CLAIM_SECONDS = 10;

type EventRow = SqlRow<NotificationEvent, "id" | "type" | "subject_id" | "created_at">;

export interface DispatchLoop {
  /** Dispatches a batch now, after the one in progress (tests, benchmarks); answers how many events it handled. */
  dispatchNow(): Promise<number>;
  stop(): Promise<void>;
}

// After a batch that was not full, the next one waits this long (at most the poll interval): on a
// busy site events arrive a few at a time, and every batch costs the same seven statements
// however few it carries (docs/performance.md, step 28). A full batch is followed at once.
const GATHER_MS = 50;
// While events keep coming, an empty claim is followed after GATHER_MS too, for this long after the
// last that found some: a rule's job (or a delivery) is not held back by a whole poll because one
// look fell between two messages (issue 44: a rule acts within a second of its event).
const ALERT_MS = 2_000;

/** The dispatcher's loop (lib/jobs/claim-loop.ts): one batch at a time, each finished before the next is claimed. */
export function startDispatchLoop(context: JobContext, logError: ErrorLog): DispatchLoop {
  // The loop's batches and dispatchNow's take turns, so dispatchNow answers after what was
  // claimed before it has been written.
  let last: Promise<number> = Promise.resolve(0);
  const dispatchNow = (limit = DISPATCH_BATCH) => (last = last.catch(() => 0).then(() => dispatchEvents(context, limit)));
  const loop = claimLoop({
    room: DISPATCH_BATCH,
    claim: dispatchNow,
    pollMs: context.timings.dispatchPollMs,
    gatherMs: Math.min(GATHER_MS, context.timings.dispatchPollMs),
    alertMs: ALERT_MS,
    failed: (error) => logError("notification_dispatch_failed", error),
  });
  loop.wake();
  return {
    dispatchNow: () => dispatchNow(),
    stop: async () => {
      await loop.stop({ abrupt: false });
      await last.catch(() => 0);
    },
  };
}

/** Dispatches one batch of at most `limit` events; returns how many events it handled. */
export async function dispatchEvents(context: JobContext, limit = DISPATCH_BATCH): Promise<number> {
  const { executor, timings } = context;
  const events = await claimEvents(executor, limit);
  if (events.length === 0) return 0;

  const batch = await loadBatchFacts(executor, events, timings);
  const caused: { event: string; effects: Effects }[] = [];
  for (const event of events) {
    for (const consume of consumersOf(event.type)) {
      const effects = await consume(event, batch);
      if (effects) caused.push({ event: event.id, effects });
    }
  }
  // Deliveries are due when this batch stored some, or a retry made one due (a wake-up is cheap:
  // one claim, so it is not held back for an event another instance deleted).
  let deliveriesDue = caused.some(({ effects }) => effects.wakeDeliveries);

  const handled = await executor.transaction(async (sql) => {
    const { rows: deleted } = await sql.executeSql(
      `DELETE FROM "notification_events" WHERE "id" = ANY($1::text[]) RETURNING "id"`,
      [events.map((event) => event.id)],
    );
    const mine = new Set((deleted as SqlRow<NotificationEvent, "id">[]).map((row) => row.id));
    const ours = caused.filter(({ event }) => mine.has(event)).map(({ effects }) => effects);
    if ((await storeDeliveries(sql, ours.flatMap((effects) => effects.deliveries ?? []))) > 0) deliveriesDue = true;
    const jobs = ours.flatMap((effects) => effects.jobs ?? []);
    jobs.push(...(await storeEmails(sql, ours.flatMap((effects) => effects.emails ?? []))));
    await context.addJobs(sql, jobs);
    return mine.size;
  });
  if (deliveriesDue) context.wakeDeliveries();
  return handled;
}

/** Claims the oldest unclaimed events (or those whose claim ran out), oldest first. */
async function claimEvents(executor: SqlExecutor, limit: number): Promise<OutboxEvent[]> {
  const { rows } = await executor.executeSql(
    `UPDATE "notification_events" SET "claimed_until" = now() + $2::int * interval '1 second'
      WHERE "id" IN (
        SELECT "id" FROM "notification_events"
         WHERE "claimed_until" IS NULL OR "claimed_until" < now()
         ORDER BY "created_at" LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING "id", "type", "subject_id", "created_at"`,
    [limit, CLAIM_SECONDS],
  );
  return (rows as EventRow[])
    .map((row) => ({ id: row.id, type: row.type, subjectId: row.subject_id, createdAt: new Date(row.created_at) }))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

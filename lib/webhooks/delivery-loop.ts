import type { SqlExecutor } from "../db/client";
import { env } from "../core/env";
import type { Webhook, WebhookDelivery } from "../generated/prisma/client";
import type { NotificationTimings } from "../jobs/timings";
import { log, type ErrorLog } from "../core/log";
import { claimLoop, inBatches } from "../jobs/claim-loop";
import type { SqlRow } from "../core/sql-row";
import { ATTEMPTS_IN_FLIGHT } from "./keep-alive-agents";
import { postWebhook, type AttemptResult } from "./post-webhook";
import { webhookSecretPlace } from "../secrets/places";
import { logUnreadable, openSecret, SealedSecretError } from "../secrets/seal";
import { signWebhook } from "./signature";
import { allowedTargets, resolveTarget, TargetRefused } from "./target-guard";

// Webhook attempts straight from `webhook_deliveries`: the row is the job. Due rows are claimed in
// batches (attempt + 1, held for the timeout + 5 s, so no other worker sends them meanwhile), at
// most ATTEMPTS_IN_FLIGHT run at once per process, and the answers are recorded in batches, each
// with its next attempt's time, or `failed` after the last one. A worker that dies mid-attempt
// leaves its rows held; once the hold runs out any worker claims them again (at least once: the
// receiver may then see that event twice, with the same webhook-id). When to claim (room, polls,
// wake-ups, retry timers, stopping) is the claim loop's (lib/jobs/claim-loop.ts); this file is
// what is claimed, the attempt, and what is recorded.
//
// Per delivery this costs a share of one claim and one record statement, where a queue job per
// attempt cost an insert, a fetch, a completion and the queue's own bookkeeping
// (docs/performance.md, step 22).

type Claimed = SqlRow<WebhookDelivery, "id" | "webhook_id" | "event_id" | "payload" | "attempt"> & SqlRow<Webhook, "url" | "secret">;

interface Outcome {
  id: string;
  attempt: number;
  status: "succeeded" | "pending" | "failed";
  result: AttemptResult;
  /** Milliseconds until the next attempt (pending only). */
  retryInMs: number | null;
}

export interface DeliveryLoop {
  /** New or retried deliveries may be due: claim now instead of at the next poll. */
  wake(): void;
  /** Stops claiming; `abrupt` leaves attempts in flight (and their rows held) as a crash would. */
  stop(options: { abrupt: boolean }): Promise<void>;
}

export function startDeliveryLoop(executor: SqlExecutor, timings: NotificationTimings, logError: ErrorLog): DeliveryLoop {
  const holdMs = timings.webhookTimeoutMs + 5_000;
  let abandoned = false;
  const loop = claimLoop({
    room: ATTEMPTS_IN_FLIGHT,
    pollMs: timings.dispatchPollMs,
    claim: async (room) => {
      const claimed = await claim(executor, room, holdMs);
      for (const delivery of claimed) loop.hold(attemptAndRecord(delivery));
      return claimed.length;
    },
    failed: (error) => logError("webhook_claim_failed", error),
  });
  // Answers that come in while a batch is written wait for the next one.
  const record = inBatches((outcomes: Outcome[]) =>
    recordOutcomes(executor, outcomes).catch((error) => logError("webhook_record_failed", error)), // held rows are claimed again when the hold ends
  );

  async function attemptAndRecord(delivery: Claimed): Promise<void> {
    const outcome = await attemptOnce(delivery, timings, logError);
    if (!outcome || abandoned) return; // stopped abruptly: nothing more is written, as after a crash
    await record(outcome);
    // Claim the retry when it falls due, which may be sooner than the next poll.
    if (outcome.retryInMs !== null) loop.wakeAt(Date.now() + outcome.retryInMs);
  }

  loop.wake();

  return {
    wake: loop.wake,
    stop: async ({ abrupt }) => {
      abandoned = abrupt;
      // Graceful: the attempts in flight finish and their answers are written.
      await loop.stop({ abrupt });
    },
  };
}

/**
 * One pass without a loop, for a serverless round (lib/notifications/round.ts): claims the due
 * deliveries there is room for, attempts them all, records their answers in one statement, and
 * answers how many it claimed. A retry falls due for a later pass (the next round or the cron).
 */
export async function deliverDueOnce(executor: SqlExecutor, timings: NotificationTimings, logError: ErrorLog): Promise<number> {
  const claimed = await claim(executor, ATTEMPTS_IN_FLIGHT, timings.webhookTimeoutMs + 5_000);
  const outcomes = await Promise.all(claimed.map((delivery) => attemptOnce(delivery, timings, logError)));
  const answered = outcomes.filter((outcome): outcome is Outcome => outcome !== null);
  if (answered.length > 0) await recordOutcomes(executor, answered);
  return claimed.length;
}

/** Attempts a claimed delivery and judges the answer; null when the attempt itself broke (the hold runs out, it is claimed again). */
async function attemptOnce(delivery: Claimed, timings: NotificationTimings, logError: ErrorLog): Promise<Outcome | null> {
  try {
    const result = await attempt(delivery, timings.webhookTimeoutMs);
    const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
    const retryInMs = succeeded ? null : (timings.webhookRetryScheduleMs[delivery.attempt - 1] ?? null);
    const status = succeeded ? "succeeded" : retryInMs !== null ? "pending" : "failed";
    log.info("webhook_attempt", { delivery: delivery.id, attempt: delivery.attempt, status, response_status: result.status });
    return { id: delivery.id, attempt: delivery.attempt, status, result, retryInMs };
  } catch (error) {
    logError("webhook_attempt_failed", error);
    return null;
  }
}

async function claim(executor: SqlExecutor, limit: number, holdMs: number): Promise<Claimed[]> {
  const { rows } = await executor.executeSql(
    `UPDATE "webhook_deliveries" AS d
        SET "attempt" = d."attempt" + 1, "locked_until" = now() + $2::int * interval '1 millisecond', "updated_at" = now()
       FROM "webhooks" AS w
      WHERE d."id" IN (
              SELECT "id" FROM "webhook_deliveries"
               WHERE "status" = 'pending' AND "next_attempt_at" <= now()
                 AND ("locked_until" IS NULL OR "locked_until" < now())
                 -- A URL that no longer passes the target rules is not tried: its deliveries wait (recheck-targets.ts).
                 AND NOT EXISTS (SELECT 1 FROM "webhooks" f WHERE f."id" = "webhook_deliveries"."webhook_id" AND f."url_refused" IS NOT NULL)
               ORDER BY "next_attempt_at" LIMIT $1 FOR UPDATE SKIP LOCKED)
        AND w."id" = d."webhook_id"
      RETURNING d."id", d."webhook_id", d."event_id", d."payload", d."attempt", w."url", w."secret"`,
    [limit, holdMs],
  );
  return rows as Claimed[];
}

// Only the attempt that claimed a row records it: a late answer after the hold ran out changes
// nothing. The same statement keeps each answered webhook's health (the last attempt, the failures
// since its last success), in the order the answers came (`ord`).
const RECORD_OUTCOMES = `
  WITH o AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY
      AS o(id, attempt, status, response_status, response_body, last_error, retry_in_ms, ord)
  ), recorded AS (
    UPDATE "webhook_deliveries" AS d
       SET "status" = o.status, "response_status" = o.response_status::int, "response_body" = o.response_body,
           "last_error" = o.last_error, "locked_until" = NULL, "updated_at" = now(),
           "next_attempt_at" = CASE WHEN o.retry_in_ms IS NULL THEN NULL
                                    ELSE now() + o.retry_in_ms::int * interval '1 millisecond' END
      FROM o
     WHERE d."id" = o.id AND d."attempt" = o.attempt
    RETURNING d."webhook_id", o.ord, o.status = 'succeeded' AS ok, o.response_status::int AS response_status, o.last_error
  ), tally AS (
    SELECT r."webhook_id", max(r.ord) FILTER (WHERE r.ok) AS last_ok,
           (array_agg(r.ok ORDER BY r.ord DESC))[1] AS ok,
           (array_agg(r.response_status ORDER BY r.ord DESC))[1] AS response_status,
           (array_agg(r.last_error ORDER BY r.ord DESC))[1] AS last_error
      FROM recorded r GROUP BY r."webhook_id"
  ), failed AS (
    SELECT t.*, (SELECT count(*) FROM recorded r
                  WHERE r."webhook_id" = t."webhook_id" AND NOT r.ok AND r.ord > coalesce(t.last_ok, 0))::int AS failures
      FROM tally t
  )
  UPDATE "webhooks" AS w
     SET "last_attempt_at" = now(), "last_result" = CASE WHEN f.ok THEN 'succeeded' ELSE 'failed' END,
         "last_response_status" = f.response_status, "last_error" = f.last_error,
         "last_success_at" = CASE WHEN f.last_ok IS NULL THEN w."last_success_at" ELSE now() END,
         "failures_in_a_row" = f.failures + CASE WHEN f.last_ok IS NULL THEN w."failures_in_a_row" ELSE 0 END
    FROM failed f
   WHERE w."id" = f."webhook_id"`;

async function recordOutcomes(executor: SqlExecutor, outcomes: Outcome[]): Promise<void> {
  const column = <T>(pick: (outcome: Outcome) => T) => outcomes.map(pick);
  await executor.executeSql(RECORD_OUTCOMES, [
    column((outcome) => outcome.id),
    column((outcome) => outcome.attempt),
    column((outcome) => outcome.status),
    column((outcome) => (outcome.result.status === null ? null : String(outcome.result.status))),
    column((outcome) => outcome.result.body),
    column((outcome) => outcome.result.error),
    column((outcome) => (outcome.retryInMs === null ? null : String(outcome.retryInMs))),
  ]);
}

async function attempt(delivery: Claimed, timeoutMs: number): Promise<AttemptResult> {
  try {
    const { WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_ALLOWED_TARGETS } = env();
    const target = await resolveTarget(delivery.url, WEBHOOK_ALLOW_PRIVATE_TARGETS === "on", allowedTargets(WEBHOOK_ALLOWED_TARGETS));
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      "content-type": "application/json",
      "webhook-id": delivery.event_id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook(openSecret(delivery.secret, webhookSecretPlace(delivery.webhook_id)), delivery.event_id, timestamp, delivery.payload),
    };
    return await postWebhook(target, headers, delivery.payload, timeoutMs);
  } catch (error) {
    if (error instanceof TargetRefused) return { status: null, body: null, error: error.message };
    if (error instanceof SealedSecretError) {
      // Fails closed: nothing unsigned is sent; the attempt is retried like any failure.
      logUnreadable(error);
      return { status: null, body: null, error: "The webhook's signing secret could not be opened (see the service log); nothing was sent." };
    }
    throw error;
  }
}

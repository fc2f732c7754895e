import type { SqlQuery } from "../db";
import { env } from "../env";
import type { Webhook, WebhookDelivery } from "../generated/prisma/client";
import type { JobContext } from "../jobs/context";
import { QUEUES } from "../jobs/queue";
import { log } from "../log";
import { postWebhook, type AttemptResult } from "./post-webhook";
import type { SqlRow } from "../sql-row";
import { signWebhook } from "./signature";
import { resolveTarget, TargetRefused } from "./target-guard";

// One attempt of a webhook delivery (the "webhook-delivery" job). The delivery row is claimed
// for the attempt (so two workers never send it at once), the answer recorded, and the next
// attempt scheduled in the same transaction — or `failed` after the last one.

type Claimed = SqlRow<WebhookDelivery, "id" | "event_id" | "payload" | "attempt"> & SqlRow<Webhook, "url" | "secret">;

export async function deliverWebhook(context: JobContext, deliveryId: string): Promise<void> {
  const { executor, timings } = context;
  const holdMs = timings.webhookTimeoutMs + 5_000;
  const { rows } = await executor.executeSql(
    `UPDATE "webhook_deliveries" AS d
        SET "attempt" = d."attempt" + 1, "locked_until" = now() + $2::int * interval '1 millisecond', "updated_at" = now()
       FROM "webhooks" AS w
      WHERE d."id" = $1 AND w."id" = d."webhook_id" AND d."status" = 'pending'
        AND (d."next_attempt_at" IS NULL OR d."next_attempt_at" <= now() + interval '1 second')
        AND (d."locked_until" IS NULL OR d."locked_until" < now())
      RETURNING d."id", d."event_id", d."payload", d."attempt", w."url", w."secret"`,
    [deliveryId, holdMs],
  );
  const delivery = rows[0] as Claimed | undefined;
  if (!delivery) return followHeldDelivery(context, deliveryId);

  const result = await attempt(delivery, timings.webhookTimeoutMs);
  const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
  const wait = timings.webhookRetryScheduleMs[delivery.attempt - 1];
  const next = !succeeded && wait !== undefined ? new Date(Date.now() + wait) : null;
  const status = succeeded ? "succeeded" : next ? "pending" : "failed";
  const record = (sql: SqlQuery) =>
    sql.executeSql(
      `UPDATE "webhook_deliveries"
          SET "status" = $2, "response_status" = $3, "response_body" = $4, "last_error" = $5,
              "next_attempt_at" = $6::timestamptz, "locked_until" = NULL, "updated_at" = now()
        WHERE "id" = $1 AND "attempt" = $7`,
      [delivery.id, status, result.status, result.body, result.error, next?.toISOString() ?? null, delivery.attempt],
    );
  if (next) {
    // The record and the next attempt's job commit together.
    await executor.transaction(async (sql) => {
      await record(sql);
      await context.addJobs(sql, [{ name: QUEUES.webhook, data: { deliveryId }, startAfter: next }]);
    });
  } else {
    await record(executor);
  }
  log.info("webhook_attempt", { delivery: delivery.id, attempt: delivery.attempt, status, response_status: result.status });
}

/**
 * Not claimed: delivered, failed, deleted or not yet due (a stale job: nothing to do), or held by
 * an attempt in flight. That attempt's worker may have died: look again when its hold runs out.
 */
async function followHeldDelivery(context: JobContext, deliveryId: string): Promise<void> {
  await context.executor.transaction(async (sql) => {
    const { rows } = await sql.executeSql(
      `SELECT "locked_until" FROM "webhook_deliveries" WHERE "id" = $1 AND "status" = 'pending' AND "locked_until" > now()`,
      [deliveryId],
    );
    const heldUntil = rows[0]?.locked_until as Date | string | undefined;
    if (!heldUntil) return;
    const startAfter = new Date(new Date(heldUntil).getTime() + 1_000);
    await context.addJobs(sql, [{ name: QUEUES.webhook, data: { deliveryId }, startAfter }]);
  });
}

async function attempt(delivery: Claimed, timeoutMs: number): Promise<AttemptResult> {
  try {
    const target = await resolveTarget(delivery.url, env().WEBHOOK_ALLOW_PRIVATE_TARGETS === "on");
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      "content-type": "application/json",
      "webhook-id": delivery.event_id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook(delivery.secret, delivery.event_id, timestamp, delivery.payload),
    };
    return await postWebhook(target, headers, delivery.payload, timeoutMs);
  } catch (error) {
    if (error instanceof TargetRefused) return { status: null, body: null, error: error.message };
    throw error;
  }
}

import { randomUUID } from "node:crypto";
import type { SqlQuery } from "../db/client";
import type { Webhook } from "../generated/prisma/client";
import type { OutboxEvent } from "../contracts/notification-events";
import { WEBHOOK_EVENTS, type WebhookEvent } from "../contracts/webhooks";
import { eventData, type LoadedMessage } from "./event-data";

// The webhooks' consumers of the outbox (lib/notifications/rules.ts): an event a webhook takes
// becomes a delivery row, written with the event's deletion and then claimed and attempted by
// lib/webhooks/delivery-loop.ts (the row is the job).

export interface DeliveryDraft {
  id: string;
  webhookId: string;
  /** The event's id: the webhook-id header on every attempt. */
  eventId: string;
  type: string;
  /** The exact body of every attempt. */
  payload: string;
}

export type WebhookSubscription = Pick<Webhook, "id" | "events">;

const isWebhookEvent = (type: string): type is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(type);

/**
 * One delivery per webhook that takes the event, all with one payload built now from the row the
 * event names (a message's from the batch's payloads, read once for the batch). Nothing when no
 * webhook takes it, or when the row is gone.
 */
export async function deliverToWebhooks(
  event: OutboxEvent,
  batch: { webhooks: WebhookSubscription[]; payloads: Map<string, LoadedMessage> | null },
): Promise<{ deliveries: DeliveryDraft[] } | null> {
  const type = event.type;
  if (!isWebhookEvent(type)) return null;
  const subscribed = batch.webhooks.filter((webhook) => webhook.events.includes(type));
  if (subscribed.length === 0) return null;
  const data = await eventData(type, event.subjectId, batch.payloads ?? undefined);
  if (!data) return null;
  const payload = JSON.stringify({ type, timestamp: event.createdAt.toISOString(), data });
  return {
    deliveries: subscribed.map((webhook) => ({ id: `whd_${randomUUID()}`, webhookId: webhook.id, eventId: event.id, type, payload })),
  };
}

/** A manual retry (retryDelivery) made its delivery due: waking the delivery loop after the commit is all it needs. */
export const wakeDeliveryLoop = () => ({ wakeDeliveries: true });

/** Stores the deliveries in the caller's transaction; answers how many were new. */
export async function storeDeliveries(sql: SqlQuery, deliveries: DeliveryDraft[]): Promise<number> {
  if (deliveries.length === 0) return 0;
  // One statement for the batch; a webhook deleted meanwhile gets none, a replay adds none.
  const { rowCount } = await sql.executeSql(
    `INSERT INTO "webhook_deliveries" ("id", "webhook_id", "event_id", "type", "payload", "next_attempt_at")
     SELECT d.id, d.webhook_id, d.event_id, d.type, d.payload, now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS d(id, webhook_id, event_id, type, payload)
      WHERE EXISTS (SELECT 1 FROM "webhooks" w WHERE w."id" = d.webhook_id)
     ON CONFLICT ("webhook_id", "event_id") DO NOTHING`,
    [
      deliveries.map((delivery) => delivery.id),
      deliveries.map((delivery) => delivery.webhookId),
      deliveries.map((delivery) => delivery.eventId),
      deliveries.map((delivery) => delivery.type),
      deliveries.map((delivery) => delivery.payload),
    ],
  );
  return rowCount;
}

import { randomUUID } from "node:crypto";
import { storeEmails, type EmailDraft } from "../email/outbox";
import { ticketAcknowledgement, ticketReplyEmail } from "../email/ticket-emails";
import type { Conversation, Message, NotificationEvent, Webhook } from "../generated/prisma/client";
import type { SqlRow } from "../core/sql-row";
import { eventData, loadMessages } from "../webhooks/event-data";
import { WEBHOOK_EVENTS, type WebhookEvent } from "../contracts/webhooks";
import type { ErrorLog } from "../core/log";
import { claimLoop } from "../jobs/claim-loop";
import type { JobContext } from "../jobs/context";
import { QUEUES, type JobSpec } from "../jobs/queue";

// The dispatcher turns the outbox rows the triggers wrote (notification_events) into webhook
// deliveries (claimed by lib/webhooks/delivery-loop.ts), emails and jobs. A batch is claimed for a
// while (another instance takes it over if this one dies), its payloads are read, then one
// transaction deletes the events and writes what they cause — only for the events it deleted, so
// an event whose claim ran out and was taken by another instance meanwhile is dispatched once all
// the same.

export const DISPATCH_BATCH = 200;
const CLAIM_SECONDS = 10;

type EventRow = SqlRow<NotificationEvent, "id" | "type" | "subject_id" | "created_at">;

// What every batch needs to know first, in one statement: the webhooks and their events, and
// whether any member takes email alerts (staff-alert checks need someone to alert).
const BATCH_SETTINGS = `
  SELECT coalesce((SELECT json_agg(json_build_object('id', w."id", 'events', w."events")) FROM "webhooks" w), '[]') AS webhooks,
         EXISTS (SELECT 1 FROM "members" WHERE "email" IS NOT NULL AND "notify" AND "deactivated_at" IS NULL) AS alertable`;

// What the rules need of each new message (not its webhook payload): one statement, no ORM.
const MESSAGE_FACTS = `
  SELECT m."id", m."conversation_id", m."author_type", m."created_at", c."visitor_email"
    FROM "messages" m JOIN "conversations" c ON c."id" = m."conversation_id"
   WHERE m."id" = ANY($1::text[])`;

type MessageFactsRow = SqlRow<Message, "id" | "conversation_id" | "author_type" | "created_at"> & SqlRow<Conversation, "visitor_email">;

interface MessageFacts {
  conversationId: string;
  authorType: string;
  createdAt: Date;
  visitorEmail: string | null;
}

interface Delivery {
  event: string;
  id: string;
  webhookId: string;
  eventId: string;
  type: string;
  payload: string;
}

const isWebhookEvent = (type: string): type is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(type);

export interface DispatchLoop {
  /** Dispatches a batch now, after the one in progress (tests, benchmarks); answers how many events it handled. */
  dispatchNow(): Promise<number>;
  stop(): Promise<void>;
}

// After a batch that was not full, the next one waits this long (at most the poll interval): on a
// busy site events arrive a few at a time, and every batch costs the same seven statements
// however few it carries (docs/performance.md, step 28). A full batch is followed at once.
const GATHER_MS = 50;

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
  const { rows } = await executor.executeSql(
    `UPDATE "notification_events" SET "claimed_until" = now() + $2::int * interval '1 second'
      WHERE "id" IN (
        SELECT "id" FROM "notification_events"
         WHERE "claimed_until" IS NULL OR "claimed_until" < now()
         ORDER BY "created_at" LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING "id", "type", "subject_id", "created_at"`,
    [limit, CLAIM_SECONDS],
  );
  const events = (rows as EventRow[]).sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
  if (events.length === 0) return 0;

  const { rows: settingsRows } = await executor.executeSql(BATCH_SETTINGS);
  const { webhooks, alertable } = settingsRows[0] as { webhooks: Pick<Webhook, "id" | "events">[]; alertable: boolean };
  const messageIds = events.filter((event) => event.type === "message.created").map((event) => event.subject_id);
  // The messages' webhook payloads only when a webhook takes them (the ORM, with author and
  // conversation); else only what the rules below need.
  const payloads = webhooks.some((webhook) => webhook.events.includes("message.created")) ? await loadMessages(messageIds) : null;
  const messages = payloads ? factsOfLoaded(payloads) : await messageFacts(executor, messageIds);
  const deliveries: Delivery[] = [];
  const emails: (EmailDraft & { event: string })[] = [];
  const eventJobs: (JobSpec & { event: string })[] = [];

  for (const event of events) {
    if (isWebhookEvent(event.type)) {
      const subscribed = webhooks.filter((webhook) => webhook.events.includes(event.type));
      const data = subscribed.length > 0 ? await eventData(event.type, event.subject_id, payloads ?? undefined) : null;
      if (data) {
        const payload = JSON.stringify({ type: event.type, timestamp: new Date(event.created_at).toISOString(), data });
        for (const webhook of subscribed) {
          deliveries.push({ event: event.id, id: `whd_${randomUUID()}`, webhookId: webhook.id, eventId: event.id, type: event.type, payload });
        }
      }
    }
    switch (event.type) {
      case "message.created": {
        const message = messages.get(event.subject_id);
        if (message?.authorType === "visitor" && alertable) {
          const conversationId = message.conversationId;
          eventJobs.push({ event: event.id, name: QUEUES.staffAlert, data: { conversationId }, singletonKey: conversationId });
        } else if (message?.authorType === "staff" && message.visitorEmail) {
          const startAfter = new Date(message.createdAt.getTime() + timings.followUpDelayMs);
          eventJobs.push({ event: event.id, name: QUEUES.followUp, data: { conversationId: message.conversationId }, startAfter });
        }
        break;
      }
      case "ticket.created": {
        const email = await ticketAcknowledgement(event.subject_id);
        if (email) emails.push({ ...email, event: event.id });
        break;
      }
      case "ticket.replied": {
        const email = await ticketReplyEmail(event.subject_id);
        if (email) emails.push({ ...email, event: event.id });
        break;
      }
    }
  }
  // A manual retry (delivery.retry) made its delivery due: the wake-up below is all it needs.
  let deliveriesDue = events.some((event) => event.type === "delivery.retry");

  const handled = await executor.transaction(async (sql) => {
    const { rows: deleted } = await sql.executeSql(
      `DELETE FROM "notification_events" WHERE "id" = ANY($1::text[]) RETURNING "id"`,
      [events.map((event) => event.id)],
    );
    const mine = new Set((deleted as SqlRow<NotificationEvent, "id">[]).map((row) => row.id));
    const jobs: JobSpec[] = eventJobs.filter((job) => mine.has(job.event)).map(({ event: _event, ...job }) => job);
    const ours = deliveries.filter((delivery) => mine.has(delivery.event));
    if (ours.length > 0) {
      // One statement for the batch; a webhook deleted meanwhile gets none, a replay adds none.
      const { rowCount } = await sql.executeSql(
        `INSERT INTO "webhook_deliveries" ("id", "webhook_id", "event_id", "type", "payload", "next_attempt_at")
         SELECT d.id, d.webhook_id, d.event_id, d.type, d.payload, now()
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS d(id, webhook_id, event_id, type, payload)
          WHERE EXISTS (SELECT 1 FROM "webhooks" w WHERE w."id" = d.webhook_id)
         ON CONFLICT ("webhook_id", "event_id") DO NOTHING`,
        [
          ours.map((delivery) => delivery.id),
          ours.map((delivery) => delivery.webhookId),
          ours.map((delivery) => delivery.eventId),
          ours.map((delivery) => delivery.type),
          ours.map((delivery) => delivery.payload),
        ],
      );
      if (rowCount > 0) deliveriesDue = true;
    }
    jobs.push(...(await storeEmails(sql, emails.filter((email) => mine.has(email.event)).map(({ event: _event, ...email }) => email))));
    await context.addJobs(sql, jobs);
    return mine.size;
  });
  if (deliveriesDue) context.wakeDeliveries();
  return handled;
}

async function messageFacts(executor: JobContext["executor"], ids: string[]): Promise<Map<string, MessageFacts>> {
  if (ids.length === 0) return new Map();
  const { rows } = await executor.executeSql(MESSAGE_FACTS, [ids]);
  return new Map(
    (rows as MessageFactsRow[]).map((row) => [
      row.id,
      { conversationId: row.conversation_id, authorType: row.author_type, createdAt: new Date(row.created_at), visitorEmail: row.visitor_email },
    ]),
  );
}

function factsOfLoaded(loaded: Awaited<ReturnType<typeof loadMessages>>): Map<string, MessageFacts> {
  return new Map(
    [...loaded].map(([id, message]) => [
      id,
      { conversationId: message.conversationId, authorType: message.authorType, createdAt: message.createdAt, visitorEmail: message.conversation.visitorEmail },
    ]),
  );
}

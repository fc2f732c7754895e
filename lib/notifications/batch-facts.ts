import type { MessageFacts, OutboxEvent } from "../contracts/notification-events";
import type { SqlRow } from "../core/sql-row";
import type { SqlExecutor } from "../db/client";
import type { Conversation, Message } from "../generated/prisma/client";
import type { NotificationTimings } from "../jobs/timings";
import { loadMessages, type LoadedMessage } from "../webhooks/event-data";
import type { WebhookSubscription } from "../webhooks/webhook-consumer";
import { MESSAGE_CREATED } from "../contracts/events";

// What the consumers of a batch share, read once for the whole batch: two statements (three more
// when a webhook takes message.created), whatever its size (docs/performance.md, step 28).

export interface BatchFacts {
  /** Every webhook whose URL passes the target rules (url_refused unset), with the events it takes. */
  webhooks: WebhookSubscription[];
  /** Whether any member takes email alerts (a staff-alert check needs someone to alert). */
  alertable: boolean;
  /** What the rules need of each new message of the batch, by id. */
  messages: Map<string, MessageFacts>;
  /** The messages' webhook payloads, read only when a webhook takes message.created. */
  payloads: Map<string, LoadedMessage> | null;
  /** The events some enabled rule listens to (lib/rules/rule-events.ts: no job when none). */
  ruleEvents: ReadonlySet<string>;
  /** The rules' delays (lib/jobs/timings.ts). */
  timings: NotificationTimings;
}

// What every batch needs to know first, in one statement: the webhooks and their events,
// whether any member takes email alerts (staff-alert checks need someone to alert), and the
// events enabled rules listen to.
const BATCH_SETTINGS = `
  SELECT coalesce((SELECT json_agg(json_build_object('id', w."id", 'events', w."events")) FROM "webhooks" w WHERE w."url_refused" IS NULL), '[]') AS webhooks,
         EXISTS (SELECT 1 FROM "members" WHERE "email" IS NOT NULL AND "notify" AND "deactivated_at" IS NULL) AS alertable,
         coalesce((SELECT json_agg(DISTINCT r."event") FROM "rules" r WHERE r."enabled"), '[]') AS rule_events`;

// What the rules need of each new message (not its webhook payload): one statement, no ORM.
const MESSAGE_FACTS = `
  SELECT m."id", m."conversation_id", m."author_type", m."created_at", c."visitor_email"
    FROM "messages" m JOIN "conversations" c ON c."id" = m."conversation_id"
   WHERE m."id" = ANY($1::text[])`;

type MessageFactsRow = SqlRow<Message, "id" | "conversation_id" | "author_type" | "created_at"> & SqlRow<Conversation, "visitor_email">;

export async function loadBatchFacts(executor: SqlExecutor, events: OutboxEvent[], timings: NotificationTimings): Promise<BatchFacts> {
  const { rows: settingsRows } = await executor.executeSql(BATCH_SETTINGS);
  const { webhooks, alertable, rule_events } = settingsRows[0] as { webhooks: WebhookSubscription[]; alertable: boolean; rule_events: string[] };
  const messageIds = events.filter((event) => event.type === MESSAGE_CREATED).map((event) => event.subjectId);
  // The messages' webhook payloads only when a webhook takes them (the ORM, with author and
  // conversation); else only what the rules need.
  const payloads = webhooks.some((webhook) => webhook.events.includes(MESSAGE_CREATED)) ? await loadMessages(messageIds) : null;
  const messages = payloads ? factsOfLoaded(payloads) : await messageFacts(executor, messageIds);
  return { webhooks, alertable, messages, payloads, ruleEvents: new Set(rule_events), timings };
}

async function messageFacts(executor: SqlExecutor, ids: string[]): Promise<Map<string, MessageFacts>> {
  if (ids.length === 0) return new Map();
  const { rows } = await executor.executeSql(MESSAGE_FACTS, [ids]);
  return new Map(
    (rows as MessageFactsRow[]).map((row) => [
      row.id,
      { conversationId: row.conversation_id, authorType: row.author_type, createdAt: new Date(row.created_at), visitorEmail: row.visitor_email },
    ]),
  );
}

function factsOfLoaded(loaded: Map<string, LoadedMessage>): Map<string, MessageFacts> {
  return new Map(
    [...loaded].map(([id, message]) => [
      id,
      { conversationId: message.conversationId, authorType: message.authorType, createdAt: message.createdAt, visitorEmail: message.conversation.visitorEmail },
    ]),
  );
}

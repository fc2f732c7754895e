// The outbox's events (notification_events): a contract between what writes them (the triggers of
// migration 20261123030000_notifications, retryDelivery and sendTestEvent in lib/webhooks/webhooks.ts,
// resendEmail and emailInvite in lib/email/) and the
// consumers that the rules table (lib/notifications/rules.ts) hands them to. Types only.

import type { WebhookEvent } from "./webhooks";

/** Every event type the outbox carries: the webhook events, and those that only Parley hears. */
export type NotificationEventType = WebhookEvent | "ticket.replied" | "delivery.retry" | "email.send" | "conversation.snoozed" | "mention.created" | "conversation.assigned";

/** One claimed event. `subjectId` is the row it is about: a message, conversation, ticket, attachment, ticket reply or webhook delivery. */
export interface OutboxEvent {
  id: string;
  type: string;
  subjectId: string;
  createdAt: Date;
}

/** What the rules need of a new message (not its webhook payload), read once for the whole batch. */
export interface MessageFacts {
  conversationId: string;
  authorType: string;
  createdAt: Date;
  visitorEmail: string | null;
}

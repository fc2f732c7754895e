-- Parley notifications (docs/notifications.md): an outbox of events written by triggers in the
-- same transaction as the change that causes them, registered webhooks and their delivery log,
-- the email outbox, ticket replies, and the throttles of staff alerts and visitor follow-ups.
-- The job queue itself (pg-boss) keeps its tables in its own schema, "pgboss", created at start.

-- One row per event, deleted once the dispatcher has turned it into deliveries and jobs.
-- `subject_id` is the row the event is about (conversation, message, ticket, attachment, reply,
-- or a webhook delivery to retry); the payload is built from it when dispatched.
CREATE TABLE "notification_events" (
    "id" TEXT NOT NULL DEFAULT ('evt_' || replace(gen_random_uuid()::text, '-', '')),
    "type" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    -- A dispatcher holds the row until then; after a crash another one takes it.
    "claimed_until" TIMESTAMPTZ(3),
    CONSTRAINT "notification_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "notification_events_created_at_idx" ON "notification_events"("created_at");

-- One trigger function for every event: its argument is the event type, NEW."id" the subject.
-- PL/pgSQL keeps the INSERT's plan for the session, so a send pays for one small insert.
CREATE FUNCTION "parley_notify"() RETURNS trigger AS $$
BEGIN
  INSERT INTO "notification_events" ("type", "subject_id") VALUES (TG_ARGV[0], NEW."id");
  RETURN NULL;
END $$ LANGUAGE plpgsql;

-- Public messages only: notes never leave the inbox.
CREATE TRIGGER "messages_notify" AFTER INSERT ON "messages"
  FOR EACH ROW WHEN (NEW."kind" = 'message') EXECUTE FUNCTION "parley_notify"('message.created');

CREATE TRIGGER "conversations_notify_started" AFTER INSERT ON "conversations"
  FOR EACH ROW EXECUTE FUNCTION "parley_notify"('conversation.started');

CREATE TRIGGER "conversations_notify_closed" AFTER UPDATE OF "status" ON "conversations"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM 'closed' AND NEW."status" = 'closed')
  EXECUTE FUNCTION "parley_notify"('conversation.closed');

CREATE TRIGGER "tickets_notify" AFTER INSERT ON "tickets"
  FOR EACH ROW EXECUTE FUNCTION "parley_notify"('ticket.created');

CREATE TRIGGER "ticket_attachments_notify" AFTER UPDATE OF "uploaded_at" ON "ticket_attachments"
  FOR EACH ROW WHEN (OLD."uploaded_at" IS NULL AND NEW."uploaded_at" IS NOT NULL)
  EXECUTE FUNCTION "parley_notify"('attachment.uploaded');

-- A staff reply to a ticket, emailed to the filer.
CREATE TABLE "ticket_replies" (
    "id" TEXT NOT NULL,
    "ticket_id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ticket_replies_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "ticket_replies_ticket_id_created_at_idx" ON "ticket_replies"("ticket_id", "created_at");
ALTER TABLE "ticket_replies" ADD CONSTRAINT "ticket_replies_ticket_id_fkey" FOREIGN KEY ("ticket_id") REFERENCES "tickets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ticket_replies" ADD CONSTRAINT "ticket_replies_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TRIGGER "ticket_replies_notify" AFTER INSERT ON "ticket_replies"
  FOR EACH ROW EXECUTE FUNCTION "parley_notify"('ticket.replied');

CREATE TABLE "webhooks" (
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[] NOT NULL,
    "description" TEXT,
    -- Kept as issued: the service must sign with it. Shown once, never listed or logged.
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "webhook_id" TEXT NOT NULL,
    -- The webhook-id header: the same on every attempt.
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    -- The exact body sent on every attempt.
    "payload" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    -- `pending`, `succeeded` or `failed`.
    "status" TEXT NOT NULL DEFAULT 'pending',
    "response_status" INTEGER,
    -- At most 1 KB of the last response body.
    "response_body" TEXT,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    -- An attempt in flight holds the delivery until then (a crashed worker's hold runs out).
    "locked_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "webhook_deliveries_webhook_id_event_id_key" ON "webhook_deliveries"("webhook_id", "event_id");
CREATE INDEX "webhook_deliveries_webhook_id_created_at_idx" ON "webhook_deliveries"("webhook_id", "created_at");
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every email, sent or not: without SMTP_URL this is the outbox the operator reads.
CREATE TABLE "emails" (
    "id" TEXT NOT NULL,
    -- `staff_alert`, `visitor_follow_up`, `ticket_acknowledgement` or `ticket_reply`.
    "kind" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text_body" TEXT NOT NULL,
    "html_body" TEXT NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '{}',
    -- `pending` (queued for SMTP), `sent`, or `not_sent` (no SMTP_URL).
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "conversation_id" TEXT,
    "ticket_id" TEXT,
    "member_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    CONSTRAINT "emails_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "emails_created_at_idx" ON "emails"("created_at");

-- Staff alerts: when each member was last alerted about a conversation, and up to which message.
CREATE TABLE "staff_alerts" (
    "conversation_id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "last_sent_at" TIMESTAMPTZ(3) NOT NULL,
    "alerted_sequence" INTEGER NOT NULL,
    CONSTRAINT "staff_alerts_pkey" PRIMARY KEY ("conversation_id", "member_id")
);

-- Visitor follow-ups: up to which staff reply the visitor was emailed, and the unsubscribe.
CREATE TABLE "visitor_follow_ups" (
    "conversation_id" TEXT NOT NULL,
    "emailed_sequence" INTEGER NOT NULL DEFAULT 0,
    "unsubscribed_at" TIMESTAMPTZ(3),
    CONSTRAINT "visitor_follow_ups_pkey" PRIMARY KEY ("conversation_id")
);

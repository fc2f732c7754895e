-- Replies by email (decisions.md "Email in both directions", docs/notifications.md).

-- Every inbound email the pipeline judged: its Message-ID (hashed: one message per Message-ID,
-- held by the unique index), how it came, what became of it and why. Refusals are counted here.
CREATE TABLE "inbound_emails" (
    "id" TEXT NOT NULL,
    "message_key" TEXT,
    "via" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "conversation_id" TEXT,
    "ticket_id" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "inbound_emails_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "inbound_emails_message_key_key" ON "inbound_emails"("message_key");
CREATE INDEX "inbound_emails_outcome_received_at_idx" ON "inbound_emails"("outcome", "received_at");

-- A ticket's thread now holds the filer's emailed replies too: those have no member, and are
-- never emailed back to the filer (the trigger queues staff replies only).
ALTER TABLE "ticket_replies" ADD COLUMN "author_type" TEXT NOT NULL DEFAULT 'staff';
ALTER TABLE "ticket_replies" ALTER COLUMN "member_id" DROP NOT NULL;
DROP TRIGGER "ticket_replies_notify" ON "ticket_replies";
CREATE TRIGGER "ticket_replies_notify" AFTER INSERT ON "ticket_replies"
  FOR EACH ROW WHEN (NEW."author_type" = 'staff') EXECUTE FUNCTION "parley_notify"('ticket.replied');

-- Ticket triage (issue #25, docs/inbox.md "Tickets"): a status (open, pending, solved), an
-- assignee among the members, when the ticket last changed and when it was solved; and the
-- staff-only history of those changes, drawn on the ticket's page ("Ada set status to solved").
ALTER TABLE "tickets" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'open';
ALTER TABLE "tickets" ADD COLUMN "assignee_id" TEXT;
ALTER TABLE "tickets" ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "tickets" ADD COLUMN "solved_at" TIMESTAMPTZ(3);
UPDATE "tickets" SET "updated_at" = "created_at";
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_assignee_id_fkey"
    FOREIGN KEY ("assignee_id") REFERENCES "members"("id") ON DELETE SET NULL ON UPDATE CASCADE;
-- The list's filters, newest first within each.
CREATE INDEX "tickets_status_created_at_idx" ON "tickets"("status", "created_at");
CREATE INDEX "tickets_assignee_id_created_at_idx" ON "tickets"("assignee_id", "created_at");

-- One row per change: `field` is status, assignee or priority; the values as stored (an assignee
-- by member id, null for none). `member_id` null: the filer's emailed reply reopened the ticket.
CREATE TABLE "ticket_events" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "ticket_id" TEXT NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "member_id" TEXT REFERENCES "members"("id") ON DELETE SET NULL ON UPDATE CASCADE,
  "field" TEXT NOT NULL,
  "old_value" TEXT,
  "new_value" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "ticket_events_ticket_id_created_at_idx" ON "ticket_events"("ticket_id", "created_at");

-- One-click unsubscribe links outlive their outbox email (docs/notifications.md, "One-click
-- unsubscribe"). When retention prunes a sent email that carried one, what the link needs is kept
-- here: the site, the conversation or ticket, and a keyed hash of the address, never the address.
CREATE TABLE "pruned_unsubscribe_links" (
  "email_id" TEXT NOT NULL,
  "kind" TEXT NOT NULL,
  "site_id" TEXT NOT NULL,
  "conversation_id" TEXT,
  "ticket_id" TEXT,
  "address_hash" TEXT NOT NULL,
  "pruned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "pruned_unsubscribe_links_pkey" PRIMARY KEY ("email_id")
);
CREATE INDEX "pruned_unsubscribe_links_conversation_id_idx" ON "pruned_unsubscribe_links"("conversation_id");
CREATE INDEX "pruned_unsubscribe_links_ticket_id_idx" ON "pruned_unsubscribe_links"("ticket_id");

-- An unsubscribe by such a link lists the address by its hash alone.
ALTER TABLE "email_suppressions" ALTER COLUMN "address_key" DROP NOT NULL;
ALTER TABLE "email_suppressions" ADD COLUMN "address_hash" TEXT;
CREATE INDEX "email_suppressions_address_hash_idx" ON "email_suppressions"("address_hash");

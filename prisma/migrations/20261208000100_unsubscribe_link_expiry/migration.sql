-- An unsubscribe link works for UNSUBSCRIBE_LINK_DAYS after its email was written
-- (lib/email/pruned-links.ts): what pruning kept of a sent email's link goes once the link expires.
-- Records kept before this had only their pruning's time, which is later than their email's:
-- taken as the email's, so they live a little longer, never shorter.
ALTER TABLE "pruned_unsubscribe_links" ADD COLUMN "email_created_at" TIMESTAMPTZ(3);
UPDATE "pruned_unsubscribe_links" SET "email_created_at" = "pruned_at";
ALTER TABLE "pruned_unsubscribe_links" ALTER COLUMN "email_created_at" SET NOT NULL;
CREATE INDEX "pruned_unsubscribe_links_email_created_at_idx" ON "pruned_unsubscribe_links"("email_created_at");

-- Per-recipient caps on automatic emails (decisions.md, "Email in both directions"): each email
-- records its site and its normalised recipient (trimmed, lower-case), so one indexed count finds
-- what a site sent one address in the last hour and day; over a cap the email is kept with status
-- `suppressed` and the cap it hit.
ALTER TABLE "emails" ADD COLUMN "site_id" TEXT;
ALTER TABLE "emails" ADD COLUMN "recipient_key" TEXT;
ALTER TABLE "emails" ADD COLUMN "suppressed_reason" TEXT;
UPDATE "emails" e SET
  "recipient_key" = lower(btrim(e."recipient")),
  "site_id" = coalesce(
    (SELECT t."site_id" FROM "tickets" t WHERE t."id" = e."ticket_id"),
    (SELECT c."site_id" FROM "conversations" c WHERE c."id" = e."conversation_id"));
ALTER TABLE "emails" ALTER COLUMN "recipient_key" SET NOT NULL;
CREATE INDEX "emails_site_id_recipient_key_created_at_idx" ON "emails"("site_id", "recipient_key", "created_at");

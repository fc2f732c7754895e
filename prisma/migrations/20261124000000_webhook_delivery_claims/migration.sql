-- Webhook attempts are claimed straight from webhook_deliveries (lib/webhooks/delivery-loop.ts)
-- instead of one queue job per attempt: due rows are found by status and time.
UPDATE "webhook_deliveries" SET "next_attempt_at" = "created_at" WHERE "status" = 'pending' AND "next_attempt_at" IS NULL;
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

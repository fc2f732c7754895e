-- The owners' inbound counts (GET /api/v1/inbox/inbound-counts): the last 30 days of inbound
-- emails by outcome and reason, read from this index alone.
CREATE INDEX "inbound_emails_received_at_outcome_reason_idx" ON "inbound_emails"("received_at", "outcome", "reason");

-- Privacy and retention (decisions.md, round 3, "Trust"). A site may keep closed conversations and
-- tickets for a number of days (null: keep them); a daily job erases what is older.
ALTER TABLE "sites" ADD COLUMN "retention_days" INTEGER;
ALTER TABLE "sites" ADD CONSTRAINT "sites_retention_days_check" CHECK ("retention_days" BETWEEN 1 AND 3650);

-- An erasure done: what kind of request and how many rows of each kind went, never whom it was
-- about. It is the subject of the `privacy.erased` webhook event.
CREATE TABLE "privacy_erasures" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "site_id" TEXT,
    "counts" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "privacy_erasures_pkey" PRIMARY KEY ("id")
);

-- Retention's scans: closed conversations by close time, and the logs by age.
CREATE INDEX "conversations_closed_at_idx" ON "conversations" ("closed_at");
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" ("created_at");
CREATE INDEX "page_views_created_at_idx" ON "page_views" ("created_at");

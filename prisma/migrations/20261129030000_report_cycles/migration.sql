-- Reports precomputed (docs/reports.md, "Precomputed: conversation_cycles"). lib/reports measures a
-- conversation's cycles (measureCycles, the one place of the definitions) and keeps them here, one
-- row per cycle, plus one row per close that ended no cycle (a close before any visitor message),
-- so a report aggregates indexed rows instead of measuring every timeline of its range.
CREATE TABLE "conversation_cycles" (
    "conversation_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    -- 1 for the conversation's first cycle; null for a close that ended no cycle.
    "cycle" INTEGER,
    "site_id" TEXT NOT NULL,
    -- The conversation's assigned member now (group=member).
    "member_id" TEXT,
    "started_at" TIMESTAMPTZ(3),
    "first_response_s" INTEGER,
    "first_response_skipped_s" INTEGER,
    "bot_replies_ignored" INTEGER NOT NULL DEFAULT 0,
    "resolution_s" INTEGER,
    "resolution_skipped_s" INTEGER,
    "closed_at" TIMESTAMPTZ(3),
    CONSTRAINT "conversation_cycles_pkey" PRIMARY KEY ("conversation_id", "position")
);
CREATE INDEX "conversation_cycles_started_at_idx" ON "conversation_cycles"("started_at");
CREATE INDEX "conversation_cycles_closed_at_idx" ON "conversation_cycles"("closed_at");
ALTER TABLE "conversation_cycles" ADD CONSTRAINT "conversation_cycles_conversation_id_fkey"
    FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- "Started" counts conversations created in the range, whatever their site.
CREATE INDEX "conversations_created_at_idx" ON "conversations"("created_at");

-- Conversations whose cycles must be measured again: marked by triggers in the transaction of the
-- change (so none is missed), measured by lib/reports/cycles.ts before a report reads and by
-- `npx tsx scripts/measure-cycles.ts`.
CREATE TABLE "report_stale_conversations" (
    "conversation_id" TEXT NOT NULL,
    "marked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "report_stale_conversations_pkey" PRIMARY KEY ("conversation_id")
);
ALTER TABLE "report_stale_conversations" ADD CONSTRAINT "report_stale_conversations_conversation_id_fkey"
    FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- DO UPDATE (not DO NOTHING): a mark waits for a measurement holding the row and survives it.
CREATE FUNCTION "parley_report_stale"() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'messages' THEN
    IF TG_OP <> 'INSERT' AND OLD."kind" = 'message' THEN
      INSERT INTO "report_stale_conversations" ("conversation_id") SELECT OLD."conversation_id"
        WHERE EXISTS (SELECT 1 FROM "conversations" WHERE "id" = OLD."conversation_id")
        ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
    END IF;
    IF TG_OP <> 'DELETE' AND NEW."kind" = 'message' THEN
      INSERT INTO "report_stale_conversations" ("conversation_id") VALUES (NEW."conversation_id")
        ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
    END IF;
  ELSIF TG_TABLE_NAME = 'conversations' THEN
    INSERT INTO "report_stale_conversations" ("conversation_id") VALUES (NEW."id")
      ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
  ELSIF TG_TABLE_NAME = 'sites' THEN
    INSERT INTO "report_stale_conversations" ("conversation_id") SELECT "id" FROM "conversations" WHERE "site_id" = NEW."id"
      ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
  ELSIF TG_TABLE_NAME = 'members' THEN
    INSERT INTO "report_stale_conversations" ("conversation_id")
      SELECT DISTINCT "conversation_id" FROM "messages" WHERE "member_id" = NEW."id" AND "kind" = 'message'
      ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- A public message (its kind, author, time or event decide the timeline).
CREATE TRIGGER "messages_report_stale" AFTER INSERT OR DELETE OR UPDATE OF "kind", "author_type", "member_id", "event", "created_at", "sequence", "conversation_id" ON "messages"
  FOR EACH ROW EXECUTE FUNCTION "parley_report_stale"();
-- The assignee (group=member) and the site the cycles are counted for.
CREATE TRIGGER "conversations_report_stale" AFTER UPDATE OF "assigned_member_id", "site_id" ON "conversations"
  FOR EACH ROW WHEN (OLD."assigned_member_id" IS DISTINCT FROM NEW."assigned_member_id" OR OLD."site_id" IS DISTINCT FROM NEW."site_id")
  EXECUTE FUNCTION "parley_report_stale"();
-- New hours re-measure the site's conversations.
CREATE TRIGGER "sites_report_stale" AFTER UPDATE OF "hours", "holidays", "timezone" ON "sites"
  FOR EACH ROW WHEN (OLD."hours"::text IS DISTINCT FROM NEW."hours"::text OR OLD."holidays" IS DISTINCT FROM NEW."holidays" OR OLD."timezone" IS DISTINCT FROM NEW."timezone")
  EXECUTE FUNCTION "parley_report_stale"();
-- A member made a bot (or not): their replies stop (or start) being first responses.
CREATE TRIGGER "members_report_stale" AFTER UPDATE OF "bot" ON "members"
  FOR EACH ROW WHEN (OLD."bot" IS DISTINCT FROM NEW."bot")
  EXECUTE FUNCTION "parley_report_stale"();

-- The backfill: every existing conversation is measured once (before the next report, or by the command).
INSERT INTO "report_stale_conversations" ("conversation_id") SELECT "id" FROM "conversations";

-- An assignment (by a person or by routing) is an outbox event: its timeline line is the subject,
-- so the consumer knows who assigned whom (lib/push/conversation-pushes.ts pushes it to the assignee).
CREATE TRIGGER "messages_notify_assigned" AFTER INSERT ON "messages"
  FOR EACH ROW WHEN (NEW."event" IN ('assigned', 'reassigned'))
  EXECUTE FUNCTION "parley_notify"('conversation.assigned');

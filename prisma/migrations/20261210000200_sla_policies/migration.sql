-- SLA policies (decisions.md, round 4, "SLA policies"; docs/sla.md). Owners keep an ordered list of
-- policies; the first one whose sites, teams and labels match a conversation (empty = any) applies.
CREATE TABLE "sla_policies" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    -- List order: the first policy that matches applies.
    "position" INTEGER NOT NULL,
    "first_response_minutes" INTEGER,
    "next_response_minutes" INTEGER,
    "resolution_minutes" INTEGER,
    "business_hours" BOOLEAN NOT NULL DEFAULT false,
    "site_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "team_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "label_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sla_policies_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sla_policies_minutes_check" CHECK (
        ("first_response_minutes" IS NULL OR "first_response_minutes" BETWEEN 1 AND 100000) AND
        ("next_response_minutes" IS NULL OR "next_response_minutes" BETWEEN 1 AND 100000) AND
        ("resolution_minutes" IS NULL OR "resolution_minutes" BETWEEN 1 AND 100000))
);
CREATE INDEX "sla_policies_position_idx" ON "sla_policies"("position");

-- The computed clock of each conversation, kept on its row so the list sorts and filters by an
-- index instead of computing per row (lib/sla/refresh.ts writes them).
ALTER TABLE "conversations" ADD COLUMN "sla_policy_id" TEXT;
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_sla_policy_id_fkey"
    FOREIGN KEY ("sla_policy_id") REFERENCES "sla_policies"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "conversations" ADD COLUMN "sla_first_response_due_at" TIMESTAMPTZ(3);
ALTER TABLE "conversations" ADD COLUMN "sla_next_response_due_at" TIMESTAMPTZ(3);
ALTER TABLE "conversations" ADD COLUMN "sla_resolution_due_at" TIMESTAMPTZ(3);
-- The soonest of the three (`?sort=sla`, `?sla=due_soon`).
ALTER TABLE "conversations" ADD COLUMN "sla_due_at" TIMESTAMPTZ(3);
-- The current cycle's first breach (`?sla=breached`).
ALTER TABLE "conversations" ADD COLUMN "sla_breached_at" TIMESTAMPTZ(3);
-- When the breach sweep must look at it next: the soonest target not yet recorded as breached.
ALTER TABLE "conversations" ADD COLUMN "sla_check_at" TIMESTAMPTZ(3);
-- Breaches recorded so far: [{kind, at, why, key}].
ALTER TABLE "conversations" ADD COLUMN "sla_breaches" JSONB NOT NULL DEFAULT '[]';
CREATE INDEX "conversations_sla_due_at_id_idx" ON "conversations"("sla_due_at", "id");
CREATE INDEX "conversations_sla_breached_at_idx" ON "conversations"("sla_breached_at");
CREATE INDEX "conversations_sla_check_at_idx" ON "conversations"("sla_check_at");

-- Conversations whose clock must be computed again: marked by triggers in the transaction of the
-- change (a public message, a snooze, a status, team, site or label change, new hours, a policy
-- change), computed by the SLA sweep and before a staff read.
CREATE TABLE "sla_stale_conversations" (
    "conversation_id" TEXT NOT NULL,
    "marked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sla_stale_conversations_pkey" PRIMARY KEY ("conversation_id")
);
ALTER TABLE "sla_stale_conversations" ADD CONSTRAINT "sla_stale_conversations_conversation_id_fkey"
    FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Marks nothing while no policy exists (the send pays one probe of an empty table).
CREATE FUNCTION "parley_sla_stale"() RETURNS trigger AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "sla_policies") THEN RETURN NULL; END IF;
  IF TG_TABLE_NAME = 'messages' THEN
    IF NEW."kind" = 'message' OR NEW."event" IN ('snoozed', 'unsnoozed') THEN
      INSERT INTO "sla_stale_conversations" ("conversation_id") VALUES (NEW."conversation_id")
        ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
    END IF;
  ELSIF TG_TABLE_NAME = 'conversation_labels' THEN
    IF TG_OP = 'DELETE' THEN
      INSERT INTO "sla_stale_conversations" ("conversation_id") SELECT OLD."conversation_id"
        WHERE EXISTS (SELECT 1 FROM "conversations" WHERE "id" = OLD."conversation_id")
        ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
    ELSE
      INSERT INTO "sla_stale_conversations" ("conversation_id") VALUES (NEW."conversation_id")
        ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
    END IF;
  ELSIF TG_TABLE_NAME = 'conversations' THEN
    INSERT INTO "sla_stale_conversations" ("conversation_id") VALUES (NEW."id")
      ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
  ELSIF TG_TABLE_NAME = 'sites' THEN
    INSERT INTO "sla_stale_conversations" ("conversation_id") SELECT "id" FROM "conversations" WHERE "site_id" = NEW."id" AND "status" <> 'closed'
      ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "messages_sla_stale" AFTER INSERT ON "messages"
  FOR EACH ROW EXECUTE FUNCTION "parley_sla_stale"();
CREATE TRIGGER "conversation_labels_sla_stale" AFTER INSERT OR DELETE ON "conversation_labels"
  FOR EACH ROW EXECUTE FUNCTION "parley_sla_stale"();
-- (The assignee: a missed target nobody answered is credited to them in sla_outcomes.)
CREATE TRIGGER "conversations_sla_stale" AFTER UPDATE OF "status", "snoozed_until", "team_id", "site_id", "assigned_member_id" ON "conversations"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."snoozed_until" IS DISTINCT FROM NEW."snoozed_until"
                     OR OLD."team_id" IS DISTINCT FROM NEW."team_id" OR OLD."site_id" IS DISTINCT FROM NEW."site_id"
                     OR OLD."assigned_member_id" IS DISTINCT FROM NEW."assigned_member_id")
  EXECUTE FUNCTION "parley_sla_stale"();
CREATE TRIGGER "sites_sla_stale" AFTER UPDATE OF "hours", "holidays", "timezone" ON "sites"
  FOR EACH ROW WHEN (OLD."hours"::text IS DISTINCT FROM NEW."hours"::text OR OLD."holidays" IS DISTINCT FROM NEW."holidays" OR OLD."timezone" IS DISTINCT FROM NEW."timezone")
  EXECUTE FUNCTION "parley_sla_stale"();

-- A policy created, changed, reordered or deleted: every conversation not closed is computed again
-- (a closed one keeps what it had: its clocks stopped).
CREATE FUNCTION "parley_sla_policies_changed"() RETURNS trigger AS $$
BEGIN
  INSERT INTO "sla_stale_conversations" ("conversation_id") SELECT "id" FROM "conversations" WHERE "status" <> 'closed'
    ON CONFLICT ("conversation_id") DO UPDATE SET "marked_at" = EXCLUDED."marked_at";
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER "sla_policies_changed" AFTER INSERT OR UPDATE OR DELETE ON "sla_policies"
  FOR EACH STATEMENT EXECUTE FUNCTION "parley_sla_policies_changed"();

-- Each target of each cycle, as last computed (the reports' "% of SLAs met"): replaced whole for a
-- conversation at each computation. `met` null: still running and not yet due.
CREATE TABLE "sla_outcomes" (
    "conversation_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "policy_id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "team_id" TEXT,
    -- Who is credited: the member who replied (a response) or closed (resolution); else the assignee.
    "member_id" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "met" BOOLEAN,
    CONSTRAINT "sla_outcomes_pkey" PRIMARY KEY ("conversation_id", "key")
);
CREATE INDEX "sla_outcomes_started_at_idx" ON "sla_outcomes"("started_at");
ALTER TABLE "sla_outcomes" ADD CONSTRAINT "sla_outcomes_conversation_id_fkey"
    FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Rules (decisions.md, round 4, "Rules"; docs/rules.md): event -> conditions -> actions, run in
-- list order (`position`) by the jobs machinery after the triggering write commits.
CREATE TABLE "rules" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    -- conversation.created | message.created | conversation.closed | conversation.reopened | conversation.idle | sla.breached
    "event" TEXT NOT NULL,
    -- conversation.idle only: no message for this many minutes.
    "idle_minutes" INTEGER,
    -- [{field, op, value}], checked by the contract (lib/contracts/rules.ts) when saved.
    "conditions" JSONB NOT NULL DEFAULT '[]',
    -- [{type, ...}], checked likewise.
    "actions" JSONB NOT NULL DEFAULT '[]',
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "rules_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "rules_position_id_idx" ON "rules"("position", "id");

-- One row per rule and event (the unique key is how a rule runs at most once per event): what it
-- did and the first error, if any. Claimed before the actions run.
CREATE TABLE "rule_runs" (
    "id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "event_key" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actions" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    -- false: the conditions did not hold (kept for conversation.idle only, so a quiet spell is checked once).
    "matched" BOOLEAN NOT NULL DEFAULT true,
    CONSTRAINT "rule_runs_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "rule_runs_rule_id_event_key_key" ON "rule_runs"("rule_id", "event_key");
CREATE INDEX "rule_runs_rule_id_at_idx" ON "rule_runs"("rule_id", "at" DESC);
CREATE INDEX "rule_runs_conversation_id_idx" ON "rule_runs"("conversation_id");
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "rule_runs" ADD CONSTRAINT "rule_runs_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

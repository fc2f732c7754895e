-- Reports credit people by what they did (round 4, "the first hour"; docs/reports.md): a cycle keeps
-- the member who sent its first response and the member who closed it, so a later reassignment
-- moves no credit. member_id stays the assigned member (the CSV's assigned_member_id, "started").
ALTER TABLE "conversation_cycles" ADD COLUMN "first_responder_id" TEXT;
ALTER TABLE "conversation_cycles" ADD COLUMN "closed_by_id" TEXT;

-- Backfill: every conversation is measured again (lib/reports/cycles.ts) before the next report
-- reads, which fills both columns from the messages; nothing is computed here twice.
INSERT INTO "report_stale_conversations" ("conversation_id")
SELECT "id" FROM "conversations"
ON CONFLICT ("conversation_id") DO NOTHING;

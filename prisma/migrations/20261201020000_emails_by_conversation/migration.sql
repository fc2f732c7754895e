-- A conversation's emails by age: the transcripts it stored in the last day are counted before
-- another is stored (lib/email/transcripts.ts, TRANSCRIPTS_PER_DAY).
CREATE INDEX "emails_conversation_id_created_at_idx" ON "emails"("conversation_id", "created_at");

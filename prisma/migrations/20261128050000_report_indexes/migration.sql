-- Reports (docs/reports.md) count the ratings given in a date range: without this index each
-- report would read every rating ever given.
CREATE INDEX "conversation_ratings_created_at_idx" ON "conversation_ratings"("created_at");

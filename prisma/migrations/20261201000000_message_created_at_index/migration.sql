-- Search's wider windows (lib/search/statements.ts, INDEXED_WINDOW_PAGE; docs/search.md): the
-- messages newer than a window's bound, intersected with the messages' GIN index, so a rare word's
-- first page fetches the rows of its recent matches only, not of every match. A btree, not BRIN:
-- BRIN's bitmap is lossy (whole pages), and every row of a lossy page is matched again with
-- to_tsvector, which cost more than the btree saved. At 10 M messages it is ~214 MB and built in
-- seconds; the build holds writes to messages for that time.
CREATE INDEX "messages_created_at_idx" ON "messages"("created_at");

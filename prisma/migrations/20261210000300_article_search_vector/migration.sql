-- Article search (docs/answers.md, "Search"; docs/performance.md, "Help center"): the articles'
-- tsvector, stored. Ranking a match (ts_rank_cd) needs its tsvector; computed at read time from
-- the expression index's expression, every search parsed and stemmed the whole body of every
-- matching article again (and, on a small table, of every article: the planner chose a scan).
-- Stored as a generated column, written once per insert or update, matched through its GIN index
-- and ranked as it is. Same function as before (migration 20261127030000), so the same matches.
ALTER TABLE "articles" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (parley_search_vector("title" || ' ' || "body")) STORED;

DROP INDEX "articles_search_idx";

CREATE INDEX "articles_search_idx" ON "articles" USING GIN ("search_vector");

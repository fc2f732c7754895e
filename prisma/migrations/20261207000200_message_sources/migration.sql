-- The articles an answer was drawn from (decisions.md, round 4, "Answers and the human handoff"):
-- `[{article_id, title, url}]`, always present on the wire, [] when none. A bot's answer is written
-- with its sources in the same statement that appends it (lib/conversations/statements.ts), so no
-- reader ever sees a bot message without them. A constant default: no table rewrite.
ALTER TABLE "messages" ADD COLUMN "sources" JSONB NOT NULL DEFAULT '[]';

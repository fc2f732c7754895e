-- Ratings after a close (decisions.md, round 3, "Satisfaction and reports"): one per close of a
-- conversation, keyed by the close it rates (the conversation's closed_at when it was given), so
-- a visitor rates once per close and again after the next one. The webhook event
-- `conversation.rated` is written in the same transaction, as every outbox event is.
CREATE TABLE "conversation_ratings" (
    "id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "closed_at" TIMESTAMPTZ(3) NOT NULL,
    "score" INTEGER NOT NULL,
    "comment" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "conversation_ratings_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "conversation_ratings_score_check" CHECK ("score" BETWEEN 1 AND 5)
);
CREATE UNIQUE INDEX "conversation_ratings_conversation_id_closed_at_key" ON "conversation_ratings"("conversation_id", "closed_at");
ALTER TABLE "conversation_ratings" ADD CONSTRAINT "conversation_ratings_conversation_id_fkey"
    FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TRIGGER "conversation_ratings_notify" AFTER INSERT ON "conversation_ratings"
  FOR EACH ROW EXECUTE FUNCTION "parley_notify"('conversation.rated');

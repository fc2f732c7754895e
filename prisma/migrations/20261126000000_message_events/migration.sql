-- What a system message records, for clients to act on (decisions.md, "Timeline events and
-- close/reopen"): `conversation_closed`, `conversation_reopened`. Clients act on this, never on
-- the message's English text. Null for every message a person wrote.
ALTER TABLE "messages" ADD COLUMN "event" TEXT;
UPDATE "messages" SET "event" = 'conversation_closed'
 WHERE "author_type" = 'system' AND "body" = 'This conversation was closed.';

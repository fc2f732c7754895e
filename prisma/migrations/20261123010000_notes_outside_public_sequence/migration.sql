-- Staff notes no longer take a number in the sequence the visitor sees (issue 9, item 10): after
-- message, reply, note, reply the visitor saw sequences 1, 2, 4 and learnt that a note was written.
-- A public message takes the next public sequence as before (note_number 0). A note takes no
-- public number: its `sequence` is the public sequence it follows (0 before any) and its
-- `note_number` is the conversation's next note number (1, 2, 3…), so the staff timeline is
-- ORDER BY sequence, note_number.

ALTER TABLE "conversations" ADD COLUMN "last_note_number" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "messages" ADD COLUMN "note_number" INTEGER NOT NULL DEFAULT 0;

DROP INDEX "messages_conversation_id_sequence_key";

-- Existing notes: numbered in their order, and keyed by the public message they follow. Public
-- messages keep their sequence (the gaps old notes left stay, so every visitor's cursor still
-- means what it meant); no public message ever gets a new number.
WITH numbered AS (
  SELECT n.id,
         row_number() OVER (PARTITION BY n.conversation_id ORDER BY n.sequence) AS note_number,
         COALESCE((SELECT max(p.sequence) FROM "messages" p
                   WHERE p.conversation_id = n.conversation_id AND p.kind = 'message' AND p.sequence < n.sequence), 0) AS follows
  FROM "messages" n
  WHERE n.kind = 'note'
)
UPDATE "messages" m SET "sequence" = numbered.follows, "note_number" = numbered.note_number
FROM numbered WHERE m.id = numbered.id;

UPDATE "conversations" c SET "last_note_number" = counted.notes
FROM (SELECT conversation_id, count(*)::int AS notes FROM "messages" WHERE kind = 'note' GROUP BY conversation_id) counted
WHERE c.id = counted.conversation_id;

CREATE UNIQUE INDEX "messages_conversation_id_sequence_note_number_key" ON "messages"("conversation_id", "sequence", "note_number");

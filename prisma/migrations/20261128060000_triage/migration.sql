-- Triage (issue 25, items 5 and 6; decisions.md round 3, "Saved replies, labels, snooze" and
-- "Timeline events and close/reopen").

-- Snooze: `status` may now be `snoozed` (it was never constrained by a CHECK), until this time.
ALTER TABLE "conversations" ADD COLUMN "snoozed_until" TIMESTAMPTZ(3);
CREATE INDEX "conversations_snoozed_until_idx" ON "conversations"("snoozed_until");

-- Staff-only timeline events are stored like notes (kind `note`, a note number, outside the
-- public sequence) by the system, with `event` set and what happened in `details`.
ALTER TABLE "messages" ADD COLUMN "details" JSONB;

-- Waiting time: when the oldest visitor message that no staff reply has answered was sent (null
-- when the last public message is staff's). Kept by the messages trigger below; the list sorts on it.
ALTER TABLE "conversations" ADD COLUMN "waiting_since" TIMESTAMPTZ(3);
CREATE INDEX "conversations_waiting_since_id_idx" ON "conversations"("waiting_since", "id");

UPDATE "conversations" c SET "waiting_since" = (
  SELECT min(v."created_at") FROM "messages" v
  WHERE v."conversation_id" = c."id" AND v."kind" = 'message' AND v."author_type" = 'visitor'
    AND v."sequence" > COALESCE((SELECT max(s."sequence") FROM "messages" s
                                  WHERE s."conversation_id" = c."id" AND s."kind" = 'message' AND s."author_type" = 'staff'), 0))
WHERE c."status" <> 'closed';

-- A staff-only timeline event is no activity: it leaves the list's order (last_activity_at) alone.
CREATE OR REPLACE FUNCTION "parley_inbox_message"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."kind" = 'note' AND NEW."event" IS NOT NULL THEN
    PERFORM pg_notify('parley_inbox', 'm ' || NEW."conversation_id" || ' ' || NEW."author_type" || ' ' || NEW."kind");
    RETURN NULL;
  END IF;
  UPDATE "conversations" SET
    "last_activity_at" = NEW."created_at",
    "last_visitor_sequence" = CASE WHEN NEW."author_type" = 'visitor'
                                   THEN GREATEST("last_visitor_sequence", NEW."sequence")
                                   ELSE "last_visitor_sequence" END,
    "waiting_since" = CASE WHEN NEW."kind" <> 'message' THEN "waiting_since"
                           WHEN NEW."author_type" = 'visitor' THEN COALESCE("waiting_since", NEW."created_at")
                           WHEN NEW."author_type" = 'staff' THEN NULL
                           ELSE "waiting_since" END
  WHERE "id" = NEW."conversation_id";
  PERFORM pg_notify('parley_inbox', 'm ' || NEW."conversation_id" || ' ' || NEW."author_type" || ' ' || NEW."kind");
  RETURN NULL;
END $$;

-- A snoozed conversation that becomes open again (its time came, the visitor wrote, or a member
-- unsnoozed it) gets an `unsnoozed` timeline event, whichever code path made the change. A
-- member's command names itself in the transaction's `parley.actor_member_id` setting.
CREATE FUNCTION "parley_unsnoozed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  actor TEXT := NULLIF(current_setting('parley.actor_member_id', true), '');
  numbers RECORD;
BEGIN
  UPDATE "conversations" SET "last_note_number" = "last_note_number" + 1 WHERE "id" = NEW."id"
    RETURNING "last_sequence", "last_note_number" INTO numbers;
  INSERT INTO "messages" ("id", "conversation_id", "sequence", "note_number", "client_id", "author_type", "author_id",
                          "member_id", "kind", "body", "event", "details")
  VALUES (gen_random_uuid()::text, NEW."id", numbers."last_sequence", numbers."last_note_number",
          'event_' || gen_random_uuid()::text, 'system', COALESCE(actor, 'system'), actor, 'note', 'Unsnoozed', 'unsnoozed',
          jsonb_build_object('actorMemberId', actor,
                             'reason', CASE WHEN actor IS NOT NULL THEN 'member'
                                            WHEN OLD."snoozed_until" <= clock_timestamp() THEN 'time'
                                            ELSE 'visitor_message' END,
                             'until', OLD."snoozed_until"));
  RETURN NULL;
END $$;
CREATE TRIGGER "conversations_unsnoozed" AFTER UPDATE OF "status" ON "conversations"
  FOR EACH ROW WHEN (OLD."status" = 'snoozed' AND NEW."status" = 'open')
  EXECUTE FUNCTION "parley_unsnoozed"();

-- @mentions in notes: who a note names (each gets an inbox notification, and an email when away).
CREATE TABLE "message_mentions" (
    "id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "message_mentions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "message_mentions_message_id_member_id_key" ON "message_mentions"("message_id", "member_id");
CREATE INDEX "message_mentions_member_id_created_at_idx" ON "message_mentions"("member_id", "created_at");
ALTER TABLE "message_mentions" ADD CONSTRAINT "message_mentions_message_id_fkey"
    FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "message_mentions" ADD CONSTRAINT "message_mentions_member_id_fkey"
    FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A mention, for the rules (lib/notifications/rules.ts): an email to the member when away.
CREATE TRIGGER "message_mentions_notify" AFTER INSERT ON "message_mentions"
  FOR EACH ROW EXECUTE FUNCTION "parley_notify"('mention.created');

-- The notification lock (issue #43 item 3, docs/performance.md "The notification lock"): PostgreSQL
-- serialises the commits of all transactions that NOTIFY, so the hot append commits without one
-- and its process NOTIFYs afterwards, coalesced (lib/realtime/coalesced-notify.ts). That statement
-- (APPEND_MESSAGE_SIGNALLED_AFTER) names its message in the transaction's
-- `parley.signalled_after_commit` setting; this trigger then leaves that message's inbox signal to
-- the process. Every other insert (other writers, the timeline events of triggers) NOTIFYs here,
-- on commit, as before. The body is 20261128060000's but for that condition.
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
  IF current_setting('parley.signalled_after_commit', true) IS DISTINCT FROM NEW."id" THEN
    PERFORM pg_notify('parley_inbox', 'm ' || NEW."conversation_id" || ' ' || NEW."author_type" || ' ' || NEW."kind");
  END IF;
  RETURN NULL;
END $$;

-- The staff inbox: sign-ins for members, their sessions, one-time setup and invite links,
-- assignment, per-member read state, and what the conversation list orders and counts by.

-- A member with a role and a password can sign in; `role` is `owner` or `agent`. Members
-- without them (bots such as the demo's) stay as they are. Deactivation ends every session.
ALTER TABLE "members" ADD COLUMN "role" TEXT;
ALTER TABLE "members" ADD COLUMN "password_hash" TEXT;
ALTER TABLE "members" ADD COLUMN "deactivated_at" TIMESTAMPTZ(3);

-- Only the SHA-256 (hex) of a session token is stored. Sliding: expires_at moves forward on use.
CREATE TABLE "staff_sessions" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "staff_sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "staff_sessions_token_hash_key" ON "staff_sessions"("token_hash");
CREATE INDEX "staff_sessions_member_id_idx" ON "staff_sessions"("member_id");
ALTER TABLE "staff_sessions" ADD CONSTRAINT "staff_sessions_member_id_fkey"
    FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A setup link (`setup`: the first owner) or an invite (`invite`), used once. Only the SHA-256
-- of the code is stored. An invite for an existing member names it; otherwise accepting creates one.
CREATE TABLE "staff_invites" (
    "id" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "member_id" TEXT,
    "email" TEXT,
    "name" TEXT,
    "role" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "staff_invites_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "staff_invites_code_hash_key" ON "staff_invites"("code_hash");
ALTER TABLE "staff_invites" ADD CONSTRAINT "staff_invites_member_id_fkey"
    FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Assignment, newest activity (the list's order) and the last visitor message (unread state).
ALTER TABLE "conversations" ADD COLUMN "assigned_member_id" TEXT;
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assigned_member_id_fkey"
    FOREIGN KEY ("assigned_member_id") REFERENCES "members"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "conversations" ADD COLUMN "last_activity_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "conversations" ADD COLUMN "last_visitor_sequence" INTEGER NOT NULL DEFAULT 0;
UPDATE "conversations" c SET
    "last_activity_at" = COALESCE((SELECT max(m."created_at") FROM "messages" m WHERE m."conversation_id" = c."id"), c."created_at"),
    "last_visitor_sequence" = COALESCE((SELECT max(m."sequence") FROM "messages" m
                                        WHERE m."conversation_id" = c."id" AND m."author_type" = 'visitor'), 0);
CREATE INDEX "conversations_last_activity_at_id_idx" ON "conversations"("last_activity_at" DESC, "id" DESC);
CREATE INDEX "conversations_assigned_member_id_idx" ON "conversations"("assigned_member_id");

-- Per member: the highest sequence read in each conversation it opened.
CREATE TABLE "conversation_reads" (
    "member_id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "read_sequence" INTEGER NOT NULL,
    CONSTRAINT "conversation_reads_pkey" PRIMARY KEY ("member_id", "conversation_id")
);
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_member_id_fkey"
    FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_conversation_id_fkey"
    FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The inbox's live updates: NOTIFY parley_inbox with `m <conversation> <author type> <kind>` (a
-- message), `c <conversation>` (started, closed, reopened, assigned, seen) or `t <conversation> 1|0`
-- (visitor typing), for every
-- change the inbox shows, whichever code path made it (visitor routes, operator API, inbox).
-- Kept in the database so no writer can forget it, and sent only on commit.
CREATE FUNCTION "parley_inbox_message"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "conversations" SET
    "last_activity_at" = NEW."created_at",
    "last_visitor_sequence" = CASE WHEN NEW."author_type" = 'visitor'
                                   THEN GREATEST("last_visitor_sequence", NEW."sequence")
                                   ELSE "last_visitor_sequence" END
  WHERE "id" = NEW."conversation_id";
  PERFORM pg_notify('parley_inbox', 'm ' || NEW."conversation_id" || ' ' || NEW."author_type" || ' ' || NEW."kind");
  RETURN NULL;
END $$;
CREATE TRIGGER "messages_inbox" AFTER INSERT ON "messages"
    FOR EACH ROW EXECUTE FUNCTION "parley_inbox_message"();

CREATE FUNCTION "parley_inbox_conversation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('parley_inbox', 'c ' || NEW."id");
  RETURN NULL;
END $$;
CREATE TRIGGER "conversations_inbox_insert" AFTER INSERT ON "conversations"
    FOR EACH ROW EXECUTE FUNCTION "parley_inbox_conversation"();
CREATE TRIGGER "conversations_inbox_update" AFTER UPDATE OF "status", "assigned_member_id", "visitor_seen_sequence" ON "conversations"
    FOR EACH ROW
    WHEN (OLD."status" IS DISTINCT FROM NEW."status"
          OR OLD."assigned_member_id" IS DISTINCT FROM NEW."assigned_member_id"
          OR OLD."visitor_seen_sequence" IS DISTINCT FROM NEW."visitor_seen_sequence")
    EXECUTE FUNCTION "parley_inbox_conversation"();

-- Visitor typing: told when it starts or stops, and again at most every 5 s while it goes on
-- (the widget refreshes it every few seconds; an entry lives 10 s).
CREATE FUNCTION "parley_inbox_presence"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."author_type" = 'visitor' AND (TG_OP = 'INSERT' OR OLD."typing" IS DISTINCT FROM NEW."typing"
      OR OLD."expires_at" < NEW."expires_at" - interval '5 seconds') THEN
    PERFORM pg_notify('parley_inbox', 't ' || NEW."conversation_id" || ' ' || CASE WHEN NEW."typing" THEN '1' ELSE '0' END);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "presence_inbox" AFTER INSERT OR UPDATE ON "presence"
    FOR EACH ROW EXECUTE FUNCTION "parley_inbox_presence"();

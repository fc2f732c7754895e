-- The agent's workspace (decisions.md, round 3, "Saved replies, labels, snooze"): saved replies
-- for the composer, and labels on conversations (docs/inbox.md, "Saved replies and labels").

-- A saved reply belongs to the team (`member_id` null; owners manage it) or to one member
-- (`personal`; only that member sees it). A shortcut is unique per scope: among the team's
-- replies, and among each member's own. NULLS NOT DISTINCT (PostgreSQL 15+) makes the one index
-- say both: the team's rows share the null owner.
CREATE TABLE "saved_replies" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "member_id" TEXT,
    "shortcut" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "saved_replies_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "saved_replies_scope_check" CHECK (
        ("scope" = 'team' AND "member_id" IS NULL) OR ("scope" = 'personal' AND "member_id" IS NOT NULL))
);
CREATE UNIQUE INDEX "saved_replies_member_id_shortcut_key" ON "saved_replies"("member_id", "shortcut") NULLS NOT DISTINCT;
ALTER TABLE "saved_replies" ADD CONSTRAINT "saved_replies_member_id_fkey"
    FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Labels: a name unique case-insensitively. `name_key` is the name lower-cased by the service
-- (JavaScript's toLowerCase, the same on PGlite's C locale and any PostgreSQL collation).
CREATE TABLE "labels" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "labels_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "labels_name_key_key" ON "labels"("name_key");

-- A conversation's labels. The list's label filter checks each conversation of its one walk down
-- conversations' last_activity_at index against them (a primary-key probe, or the label's rows
-- hashed once through label_id's index, as the planner estimates); label_id's index also serves
-- deleting a label.
CREATE TABLE "conversation_labels" (
    "conversation_id" TEXT NOT NULL,
    "label_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "conversation_labels_pkey" PRIMARY KEY ("conversation_id", "label_id")
);
CREATE INDEX "conversation_labels_label_id_idx" ON "conversation_labels"("label_id");
ALTER TABLE "conversation_labels" ADD CONSTRAINT "conversation_labels_conversation_id_fkey"
    FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "conversation_labels" ADD CONSTRAINT "conversation_labels_label_id_fkey"
    FOREIGN KEY ("label_id") REFERENCES "labels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Open inboxes refresh when a conversation's labels change (`c <conversation>`, as for a status
-- or an assignee; PostgreSQL folds the same payload sent twice in one transaction into one).
CREATE FUNCTION "parley_inbox_conversation_label"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('parley_inbox', 'c ' || OLD."conversation_id");
  ELSE
    PERFORM pg_notify('parley_inbox', 'c ' || NEW."conversation_id");
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "conversation_labels_inbox" AFTER INSERT OR DELETE ON "conversation_labels"
    FOR EACH ROW EXECUTE FUNCTION "parley_inbox_conversation_label"();

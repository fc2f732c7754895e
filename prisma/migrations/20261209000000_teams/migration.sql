-- Teams (decisions.md, round 4, "Teams"; docs/teams.md). A team has members, its own routing
-- (`manual` or `round_robin` with a `max_open` per member) and isolates what it holds: an agent
-- sees a conversation or ticket with no team, of one of their teams, assigned to them, or (a
-- conversation) one they were @mentioned in. The name is unique case-insensitively (`name_key`).
CREATE TABLE "teams" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "assignment" TEXT NOT NULL DEFAULT 'manual',
    "max_open" INTEGER NOT NULL DEFAULT 10,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "teams_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "teams_assignment_check" CHECK ("assignment" IN ('manual', 'round_robin')),
    CONSTRAINT "teams_max_open_check" CHECK ("max_open" BETWEEN 1 AND 1000)
);
CREATE UNIQUE INDEX "teams_name_key_key" ON "teams"("name_key");

CREATE TABLE "team_members" (
    "team_id" TEXT NOT NULL,
    "member_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "team_members_pkey" PRIMARY KEY ("team_id", "member_id")
);
CREATE INDEX "team_members_member_id_idx" ON "team_members"("member_id");
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_fkey"
    FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_member_id_fkey"
    FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A deleted team leaves its conversations and tickets without a team (seen by every agent) and
-- its sites without a default team.
ALTER TABLE "sites" ADD COLUMN "default_team_id" TEXT;
ALTER TABLE "sites" ADD CONSTRAINT "sites_default_team_id_fkey"
    FOREIGN KEY ("default_team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "conversations" ADD COLUMN "team_id" TEXT;
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_team_id_fkey"
    FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE CASCADE;
-- The list's `?team=` walk, newest activity first.
CREATE INDEX "conversations_team_id_last_activity_at_id_idx" ON "conversations"("team_id", "last_activity_at" DESC, "id" DESC);

ALTER TABLE "tickets" ADD COLUMN "team_id" TEXT;
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_team_id_fkey"
    FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "tickets_team_id_created_at_id_idx" ON "tickets"("team_id", "created_at", "id");

-- "Was this agent @mentioned in this conversation?" is one index probe per row of a list walk:
-- the mention carries its message's conversation, filled for the mentions made so far.
ALTER TABLE "message_mentions" ADD COLUMN "conversation_id" TEXT;
UPDATE "message_mentions" mm SET "conversation_id" = m."conversation_id" FROM "messages" m WHERE m."id" = mm."message_id";
ALTER TABLE "message_mentions" ALTER COLUMN "conversation_id" SET NOT NULL;
ALTER TABLE "message_mentions" ADD CONSTRAINT "message_mentions_conversation_id_fkey"
    FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "message_mentions_member_id_conversation_id_idx" ON "message_mentions"("member_id", "conversation_id");

-- A move between teams is a change the open inboxes hear about (lib/inbox/event-stream.ts).
CREATE TRIGGER "conversations_inbox_team" AFTER UPDATE OF "team_id" ON "conversations"
    FOR EACH ROW
    WHEN (OLD."team_id" IS DISTINCT FROM NEW."team_id")
    EXECUTE FUNCTION "parley_inbox_conversation"();

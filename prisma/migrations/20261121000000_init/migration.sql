-- Parley: inboxes, sites, members, conversations, messages, visitor tokens, presence.

CREATE TABLE "inboxes" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "daily_allowance" INTEGER NOT NULL DEFAULT 500,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "inboxes_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "sites" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "inbox_id" TEXT NOT NULL,
    "origins" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "offline" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sites_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sites_inbox_id_fkey" FOREIGN KEY ("inbox_id") REFERENCES "inboxes"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "sites_inbox_id_idx" ON "sites"("inbox_id");

CREATE TABLE "members" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "avatar_bytes" BYTEA,
    "avatar_content_type" TEXT,
    "avatar_tag" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "members_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "conversations" (
    "id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "inbox_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "origin" TEXT NOT NULL,
    "visitor_id" TEXT NOT NULL,
    "visitor_name" TEXT,
    "visitor_email" TEXT,
    "offline" BOOLEAN NOT NULL DEFAULT false,
    "last_sequence" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),
    CONSTRAINT "conversations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "conversations_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "conversations_inbox_id_fkey" FOREIGN KEY ("inbox_id") REFERENCES "inboxes"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "conversations_site_id_created_at_idx" ON "conversations"("site_id", "created_at");

CREATE TABLE "messages" (
    "id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "sequence" INTEGER NOT NULL,
    "client_id" TEXT NOT NULL,
    "author_type" TEXT NOT NULL,
    "author_id" TEXT NOT NULL,
    "member_id" TEXT,
    "kind" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "messages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "messages_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "messages_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "messages_conversation_id_sequence_key" ON "messages"("conversation_id", "sequence");
CREATE UNIQUE INDEX "messages_conversation_id_client_id_key" ON "messages"("conversation_id", "client_id");
CREATE INDEX "messages_conversation_id_member_id_idx" ON "messages"("conversation_id", "member_id");

CREATE TABLE "visitor_tokens" (
    "id" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "rotated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "visitor_tokens_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "visitor_tokens_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "visitor_tokens_hash_key" ON "visitor_tokens"("hash");
CREATE INDEX "visitor_tokens_conversation_id_idx" ON "visitor_tokens"("conversation_id");

CREATE TABLE "presence" (
    "conversation_id" TEXT NOT NULL,
    "actor_id" TEXT NOT NULL,
    "author_type" TEXT NOT NULL,
    "typing" BOOLEAN NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "presence_pkey" PRIMARY KEY ("conversation_id", "actor_id"),
    CONSTRAINT "presence_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE TABLE "settings" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    CONSTRAINT "settings_pkey" PRIMARY KEY ("key")
);

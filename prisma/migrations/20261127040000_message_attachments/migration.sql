-- Files in chat (decisions.md, round 3): a file is uploaded into a conversation, then sent with
-- one message. `has_attachments` lets message reads skip the lookup for the (usual) message
-- without files; the default is a constant, so adding the column rewrites nothing.
ALTER TABLE "messages" ADD COLUMN "has_attachments" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "message_attachments" (
    "id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "message_id" TEXT,
    "uploader_type" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "storage" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "uploaded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "message_attachments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "message_attachments_conversation_id_fkey" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "message_attachments_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "message_attachments_storage_key_key" ON "message_attachments"("storage_key");
CREATE INDEX "message_attachments_conversation_id_idx" ON "message_attachments"("conversation_id");
CREATE INDEX "message_attachments_message_id_idx" ON "message_attachments"("message_id");

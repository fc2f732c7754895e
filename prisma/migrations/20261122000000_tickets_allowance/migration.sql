-- Parley: tickets and their attachments, idempotency keys, page views, and the daily allowance.

ALTER TABLE "inboxes" ADD COLUMN "last_ticket_number" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "inbox_daily_usage" (
    "inbox_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "used" INTEGER NOT NULL,
    CONSTRAINT "inbox_daily_usage_pkey" PRIMARY KEY ("inbox_id", "day"),
    CONSTRAINT "inbox_daily_usage_inbox_id_fkey" FOREIGN KEY ("inbox_id") REFERENCES "inboxes"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE TABLE "tickets" (
    "id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "inbox_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "origin" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "priority" TEXT NOT NULL DEFAULT 'normal',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tickets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "tickets_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "tickets_inbox_id_fkey" FOREIGN KEY ("inbox_id") REFERENCES "inboxes"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "tickets_inbox_id_number_key" ON "tickets"("inbox_id", "number");
CREATE INDEX "tickets_site_id_created_at_idx" ON "tickets"("site_id", "created_at");

CREATE TABLE "ticket_attachments" (
    "id" TEXT NOT NULL,
    "ticket_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "storage" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "uploaded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ticket_attachments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ticket_attachments_ticket_id_fkey" FOREIGN KEY ("ticket_id") REFERENCES "tickets"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ticket_attachments_ticket_id_position_key" ON "ticket_attachments"("ticket_id", "position");
CREATE UNIQUE INDEX "ticket_attachments_storage_key_key" ON "ticket_attachments"("storage_key");

CREATE TABLE "ticket_idempotency_keys" (
    "site_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "ticket_id" TEXT NOT NULL,
    "reply" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ticket_idempotency_keys_pkey" PRIMARY KEY ("site_id", "key"),
    CONSTRAINT "ticket_idempotency_keys_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "ticket_idempotency_keys_ticket_id_fkey" FOREIGN KEY ("ticket_id") REFERENCES "tickets"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE TABLE "page_views" (
    "id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "visitor_id" TEXT,
    "page_url" TEXT NOT NULL,
    "page_title" TEXT,
    "referrer" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "page_views_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "page_views_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "page_views_site_id_created_at_idx" ON "page_views"("site_id", "created_at");

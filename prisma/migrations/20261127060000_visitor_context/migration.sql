-- Visitor context (decisions.md, round 3): the widget sends the browser's own visitor id (the page
-- views' id), its time zone and locale, and the page it starts on; the start records the browser's
-- User-Agent. They link rows and inform staff; they grant nothing.
ALTER TABLE "conversations" ADD COLUMN "browser_visitor_id" TEXT;
ALTER TABLE "conversations" ADD COLUMN "timezone" TEXT;
ALTER TABLE "conversations" ADD COLUMN "locale" TEXT;
ALTER TABLE "conversations" ADD COLUMN "user_agent" TEXT;
ALTER TABLE "conversations" ADD COLUMN "start_page_url" TEXT;
ALTER TABLE "conversations" ADD COLUMN "start_page_title" TEXT;
CREATE INDEX "conversations_site_id_browser_visitor_id_idx" ON "conversations" ("site_id", "browser_visitor_id");
-- The visitor's trail: the last pages of one visitor id on one site.
CREATE INDEX "page_views_site_id_visitor_id_created_at_idx" ON "page_views" ("site_id", "visitor_id", "created_at" DESC);
-- Privacy first: the embed stores no id before the visitor interacts, unless the owner turns this on.
ALTER TABLE "sites" ADD COLUMN "track_before_interaction" BOOLEAN NOT NULL DEFAULT false;

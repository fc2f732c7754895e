-- The widget's next version (decisions.md): the site config the widget reads (title, greeting,
-- brand colour, language, the team shown), and identity verification (a site secret, whether a
-- verified identity is required, and which conversations were started by a verified user).

ALTER TABLE "sites" ADD COLUMN "title" TEXT;
ALTER TABLE "sites" ADD COLUMN "greeting" TEXT;
ALTER TABLE "sites" ADD COLUMN "brand_color" TEXT;
ALTER TABLE "sites" ADD COLUMN "locale" TEXT;
ALTER TABLE "sites" ADD COLUMN "identity_secret" TEXT;
ALTER TABLE "sites" ADD COLUMN "identity_required" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "members" ADD COLUMN "shown_in_widget" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "conversations" ADD COLUMN "user_id" TEXT;
ALTER TABLE "conversations" ADD COLUMN "identity_verified" BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX "conversations_site_id_user_id_idx" ON "conversations"("site_id", "user_id");

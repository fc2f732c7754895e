-- The widget designed in the inbox (issue #26, docs/widget.md "Design"): the launcher's side and
-- words, and which members' pictures the header shows (none chosen: the members shown in the widget).
ALTER TABLE "sites" ADD COLUMN "position" TEXT NOT NULL DEFAULT 'right' CONSTRAINT "sites_position_check" CHECK ("position" IN ('right', 'left'));
ALTER TABLE "sites" ADD COLUMN "launcher_label" TEXT CONSTRAINT "sites_launcher_label_check" CHECK (char_length("launcher_label") BETWEEN 1 AND 40);
ALTER TABLE "sites" ADD COLUMN "team_member_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[] CONSTRAINT "sites_team_member_ids_check" CHECK (cardinality("team_member_ids") <= 5);

-- Settings shows, for each allowed origin, when the widget last loaded there: one index probe per origin.
CREATE INDEX "page_views_site_id_origin_created_at_idx" ON "page_views"("site_id", "origin", "created_at" DESC);

-- Service hours per site (decisions.md, round 3, "Service hours, availability, routing";
-- docs/service-hours.md). `hours` null: always open; otherwise every weekday's periods, each
-- ["HH:MM","HH:MM"] in the site's `timezone`. `holidays` are dates in that zone.
ALTER TABLE "sites" ADD COLUMN "timezone" TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE "sites" ADD COLUMN "hours" JSONB;
ALTER TABLE "sites" ADD COLUMN "holidays" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "sites" ADD COLUMN "away_message" TEXT;

-- Departments (decisions.md, round 4, "Teams"; docs/teams.md): the teams a site's visitors choose
-- from before their first message, `[{team_id, label}]` (0..10), each a team of the service
-- (checked by the service when the site is saved; a team deleted later is skipped by the widget
-- config and refused by the start).
ALTER TABLE "sites" ADD COLUMN "departments" JSONB NOT NULL DEFAULT '[]';

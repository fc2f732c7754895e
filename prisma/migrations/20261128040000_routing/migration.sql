-- Availability and routing (decisions.md, round 3, "Service hours, availability, routing";
-- docs/routing.md). A member is online while an inbox tab's event stream beats (`inbox_tab_at`)
-- and they neither chose `away` nor left the tab without input (`inbox_input_at`) for the idle time.
ALTER TABLE "members" ADD COLUMN "inbox_tab_at" TIMESTAMPTZ(3);
ALTER TABLE "members" ADD COLUMN "inbox_input_at" TIMESTAMPTZ(3);
ALTER TABLE "members" ADD COLUMN "away" BOOLEAN NOT NULL DEFAULT false;
-- Round robin: at most `max_open` open conversations assigned; ties go to the longest since `last_assigned_at`.
ALTER TABLE "members" ADD COLUMN "max_open" INTEGER NOT NULL DEFAULT 10 CONSTRAINT "members_max_open_check" CHECK ("max_open" BETWEEN 1 AND 1000);
ALTER TABLE "members" ADD COLUMN "last_assigned_at" TIMESTAMPTZ(3);

-- `manual` or `round_robin`; `reassign_after_minutes` null: never reassigned.
ALTER TABLE "sites" ADD COLUMN "assignment" TEXT NOT NULL DEFAULT 'manual' CONSTRAINT "sites_assignment_check" CHECK ("assignment" IN ('manual', 'round_robin'));
ALTER TABLE "sites" ADD COLUMN "reassign_after_minutes" INTEGER CONSTRAINT "sites_reassign_after_minutes_check" CHECK ("reassign_after_minutes" BETWEEN 1 AND 1440);

-- When the current assignee got the conversation: a reassigned member has the full wait too.
ALTER TABLE "conversations" ADD COLUMN "assigned_at" TIMESTAMPTZ(3);

-- The inbox's views (Mine, Unassigned, Snoozed, All, each team) count their conversations by
-- status first: one index walk over the open (or snoozed) few, however many are closed.
CREATE INDEX "conversations_status_assigned_member_id_team_id_idx" ON "conversations"("status", "assigned_member_id", "team_id");

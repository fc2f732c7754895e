import type { PreparedStatement } from "../db/client";

// Prepared and run by every widget request: the bench's bare baseline (bench/baseline/server.ts)
// imports these as any caller does, so it runs exactly the service's SQL.

/** Site $1 as the widget routes see it (every start and widget request runs it). */
export const FIND_WIDGET_SITE: PreparedStatement = {
  name: "find_widget_site",
  text: `
    SELECT id, name, inbox_id AS "inboxId", origins, offline, identity_required AS "identityRequired",
           timezone, hours, holidays, assignment, answers, default_team_id AS "defaultTeamId", departments, prechat,
           help_center_enabled AS "helpCenterEnabled"
    FROM sites WHERE id = $1`,
};

import { queryPrepared, type PreparedStatement } from "../db/client";
import type { StaffMember } from "../staff/sessions";
import { visibleConversationSql } from "../teams/visibility";

// The inbox rail's views and how many conversations each holds (docs/inbox.md, "Views"). Each count
// stops at VIEW_COUNT_CAP rows, so a view of a million reads a hundred index entries, and the open
// and snoozed ones are found through (status, assigned_member_id, team_id) (migration
// 20261210000600), not by reading the closed ones. The rail shows a capped count as "99+".

export const VIEW_COUNT_CAP = 100;

export interface ViewCounts {
  mine: number;
  unassigned: number;
  mentions: number;
  snoozed: number;
  all: number;
  /** The member's teams (every team for an owner), by name, with their open conversations. */
  teams: { id: string; name: string; count: number }[];
}

const visible = visibleConversationSql({ row: "c", member: "$1", role: "$2" });
const capped = (where: string) => `(SELECT count(*) FROM (SELECT 1 FROM conversations c WHERE ${where} LIMIT $3) x)`;

const VIEW_COUNTS: PreparedStatement = {
  name: "inbox_view_counts",
  text: `
    SELECT
      ${capped("c.status = 'open' AND c.assigned_member_id = $1")} AS mine,
      ${capped(`c.status = 'open' AND c.assigned_member_id IS NULL AND ${visible}`)} AS unassigned,
      (SELECT count(*) FROM (
         SELECT DISTINCT mm.conversation_id FROM message_mentions mm
         JOIN conversations c ON c.id = mm.conversation_id AND c.status = 'open'
         WHERE mm.member_id = $1 LIMIT $3) x) AS mentions,
      ${capped(`c.status = 'snoozed' AND ${visible}`)} AS snoozed,
      ${capped(`c.status = 'open' AND ${visible}`)} AS all_open,
      (SELECT COALESCE(json_agg(json_build_object('id', t.id, 'name', t.name, 'count', ${capped("c.status = 'open' AND c.team_id = t.id")}) ORDER BY t.name_key, t.id), '[]'::json)
         FROM teams t
        WHERE $2::text = 'owner' OR EXISTS (SELECT 1 FROM team_members tm WHERE tm.team_id = t.id AND tm.member_id = $1)) AS teams`,
};

type Count = bigint | number | string;
interface Row {
  mine: Count;
  unassigned: Count;
  mentions: Count;
  snoozed: Count;
  all_open: Count;
  teams: { id: string; name: string; count: number }[];
}

/** How many open conversations (snoozed, for Snoozed) each of the member's views holds, each at most VIEW_COUNT_CAP. */
export async function inboxViewCounts(member: Pick<StaffMember, "id" | "role">): Promise<ViewCounts> {
  const [row] = await queryPrepared<Row>(VIEW_COUNTS, [member.id, member.role, VIEW_COUNT_CAP]);
  if (!row) throw new Error("the view counts' statement answered no row");
  return {
    mine: Number(row.mine),
    unassigned: Number(row.unassigned),
    mentions: Number(row.mentions),
    snoozed: Number(row.snoozed),
    all: Number(row.all_open),
    teams: row.teams.map((team) => ({ id: team.id, name: team.name, count: Number(team.count) })),
  };
}

import { AppError } from "../core/errors";
import { queryPrepared, type PreparedStatement } from "../db/client";
import { seesEverything, visibleConversationSql, visibleTicketSql, type Viewer, type VisibilityColumns } from "./visibility";

// The rule of visibility.ts applied to one thing a request names: a conversation, a ticket, a
// file. What the member may not see answers 404 `not_found`, never 403 (docs/teams.md). What does
// not exist is left to the service, which answers its own 404. Owners pass without a query.

/** The member a check is about: its id and role (a StaffMember is one). */
export type Looker = Pick<Viewer, "id" | "role">;

export const hiddenFromYou = () => new AppError("not_found", "Nothing you can see has this identifier.");

const viewerParams = { member: "$2", role: "$3" };

const CONVERSATION_VISIBLE: PreparedStatement = {
  name: "team_conversation_visible",
  text: `SELECT ${visibleConversationSql({ row: "c", ...viewerParams })} AS visible FROM conversations c WHERE c.id = $1`,
};

const TICKET_VISIBLE: PreparedStatement = {
  name: "team_ticket_visible",
  text: `SELECT ${visibleTicketSql({ row: "t", ...viewerParams })} AS visible FROM tickets t WHERE t.id = $1`,
};

// A file is a ticket's or a conversation's (lib/uploads/stored-files.ts): whichever holds it decides.
const FILE_VISIBLE: PreparedStatement = {
  name: "team_file_visible",
  text: `
    SELECT ${visibleTicketSql({ row: "t", ...viewerParams })} AS visible
      FROM ticket_attachments a JOIN tickets t ON t.id = a.ticket_id WHERE a.id = $1
    UNION ALL
    SELECT ${visibleConversationSql({ row: "c", ...viewerParams })} AS visible
      FROM message_attachments a JOIN conversations c ON c.id = a.conversation_id WHERE a.id = $1`,
};

const CHECKS = { conversation: CONVERSATION_VISIBLE, ticket: TICKET_VISIBLE, file: FILE_VISIBLE } as const;
export type Scope = keyof typeof CHECKS;

/** Whether the member may see it: true, false, or null when nothing has this id. */
export async function canSeeById(looker: Looker, scope: Scope, id: string): Promise<boolean | null> {
  const rows = await queryPrepared<{ visible: boolean }>(CHECKS[scope], [id, looker.id, looker.role]);
  if (rows.length === 0) return null;
  return rows.some((row) => row.visible);
}

/** Throws 404 `not_found` when the thing exists and the member may not see it. */
export async function assertMaySee(looker: Looker, scope: Scope, id: string): Promise<void> {
  if (seesEverything(looker)) return;
  if ((await canSeeById(looker, scope, id)) === false) throw hiddenFromYou();
}

const TEAM_IDS: PreparedStatement = { name: "team_ids_of_member", text: `SELECT team_id FROM team_members WHERE member_id = $1` };

/** The member as the row and Prisma forms need them: with their teams (an owner's are not needed). */
export async function viewerOf(looker: Looker): Promise<Viewer> {
  if (seesEverything(looker)) return { ...looker, teamIds: [] };
  const rows = await queryPrepared<{ team_id: string }>(TEAM_IDS, [looker.id]);
  return { id: looker.id, role: looker.role, teamIds: rows.map((row) => row.team_id) };
}

/** The operator token (the admin API): it sees everything, as an owner does. */
export const OPERATOR: Looker = { id: ":operator", role: "owner" };

const ASSIGNEE_SEES: Record<"conversation" | "ticket", PreparedStatement> = {
  conversation: {
    name: "team_assignee_sees_conversation",
    text: `SELECT ${visibleConversationSql({ row: "c", member: "m.id", role: "m.role" })} AS visible FROM conversations c, members m WHERE c.id = $1 AND m.id = $2`,
  },
  ticket: {
    name: "team_assignee_sees_ticket",
    text: `SELECT ${visibleTicketSql({ row: "t", member: "m.id", role: "m.role" })} AS visible FROM tickets t, members m WHERE t.id = $1 AND m.id = $2`,
  },
};

/**
 * Assignment goes only to members who may see the thing without it (decisions.md: "assignment
 * (only to members who may see it)"): another team's agent is refused as an unknown member is.
 */
export async function assertAssigneeMaySee(scope: "conversation" | "ticket", id: string, memberId: string): Promise<void> {
  const [row] = await queryPrepared<{ visible: boolean }>(ASSIGNEE_SEES[scope], [id, memberId]);
  if (row && !row.visible) throw new AppError("member_not_found", `No active team member who may see this ${scope} has this id.`);
}

const CONVERSATION_COLUMNS: PreparedStatement = {
  name: "team_conversation_columns",
  text: `SELECT c.team_id, c.assigned_member_id AS assignee_id, ARRAY(SELECT mm.member_id FROM message_mentions mm WHERE mm.conversation_id = c.id) AS mentioned
         FROM conversations c WHERE c.id = $1`,
};
const TICKET_COLUMNS: PreparedStatement = {
  name: "team_ticket_columns",
  text: `SELECT t.team_id, t.assignee_id, ARRAY[]::text[] AS mentioned FROM tickets t WHERE t.id = $1`,
};

/** What the row form reads of one conversation or ticket; null when there is none (any more). */
export async function visibilityColumns(scope: "conversation" | "ticket", id: string): Promise<VisibilityColumns | null> {
  const [row] = await queryPrepared<{ team_id: string | null; assignee_id: string | null; mentioned: string[] }>(
    scope === "conversation" ? CONVERSATION_COLUMNS : TICKET_COLUMNS,
    [id],
  );
  return row ? { teamId: row.team_id, assigneeId: row.assignee_id, mentionedMemberIds: row.mentioned } : null;
}

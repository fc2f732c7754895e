import type { Prisma } from "../generated/prisma/client";
import type { StaffRole } from "../staff/sessions";

// Who sees what (decisions.md, round 4, "Teams"; docs/teams.md). Owners see everything. An agent
// sees a conversation or ticket when it has no team, when its team is one of the agent's, when it
// is assigned to the agent, or (a conversation) when the agent was @mentioned in it. One rule, in
// the three forms the code needs, as lib/members/can-sign-in.ts does: a row (the event stream's
// fan-out), a Prisma filter (reads through Prisma) and an SQL condition (lists, counts, search,
// alert recipients). lib/teams/visibility.test.ts proves the three pick the same rows.

/** Who is looking: a member, their role and (for the row form) the teams they belong to. */
export interface Viewer {
  id: string;
  role: StaffRole | string | null;
  teamIds: readonly string[];
}

/** What the rule reads of a conversation or a ticket (a ticket has no mentions). */
export interface VisibilityColumns {
  teamId: string | null;
  assigneeId: string | null;
  mentionedMemberIds: readonly string[];
}

export const seesEverything = (viewer: Pick<Viewer, "role">): boolean => viewer.role === "owner";

export const canSee = (viewer: Viewer, row: VisibilityColumns): boolean =>
  seesEverything(viewer) ||
  row.teamId === null ||
  viewer.teamIds.includes(row.teamId) ||
  row.assigneeId === viewer.id ||
  row.mentionedMemberIds.includes(viewer.id);

/** Prisma's form for conversations: spread it into a `where` (`{ id, ...visibleConversationWhere(viewer) }`). */
export function visibleConversationWhere(viewer: Viewer): Prisma.ConversationWhereInput {
  if (seesEverything(viewer)) return {};
  return {
    OR: [
      { teamId: null },
      { teamId: { in: [...viewer.teamIds] } },
      { assignedMemberId: viewer.id },
      { mentions: { some: { memberId: viewer.id } } },
    ],
  };
}

/** Prisma's form for tickets. */
export function visibleTicketWhere(viewer: Viewer): Prisma.TicketWhereInput {
  if (seesEverything(viewer)) return {};
  return { OR: [{ teamId: null }, { teamId: { in: [...viewer.teamIds] } }, { assigneeId: viewer.id }] };
}

export interface VisibilitySql {
  /** The conversations (or tickets) row's alias. */
  row: string;
  /** SQL for the viewer's member id: a parameter (`$1`) or a column (`m."id"`). */
  member: string;
  /** SQL for the viewer's role: a parameter (`$9`) or a column (`m."role"`). */
  role: string;
}

/**
 * SQL's form over conversations: the team's membership and the mention are looked up, so the
 * viewer can be a column of a join (alert recipients) as much as a parameter. Each branch is one
 * index probe (team_members' key, message_mentions(member_id, conversation_id)).
 */
export function visibleConversationSql({ row, member, role }: VisibilitySql): string {
  return `(${role}::text = 'owner' OR ${row}."team_id" IS NULL OR ${row}."assigned_member_id" = ${member}::text
    OR EXISTS (SELECT 1 FROM "team_members" vtm WHERE vtm."team_id" = ${row}."team_id" AND vtm."member_id" = ${member}::text)
    OR EXISTS (SELECT 1 FROM "message_mentions" vmm WHERE vmm."member_id" = ${member}::text AND vmm."conversation_id" = ${row}."id"))`;
}

/** SQL's form over tickets. */
export function visibleTicketSql({ row, member, role }: VisibilitySql): string {
  return `(${role}::text = 'owner' OR ${row}."team_id" IS NULL OR ${row}."assignee_id" = ${member}::text
    OR EXISTS (SELECT 1 FROM "team_members" vtm WHERE vtm."team_id" = ${row}."team_id" AND vtm."member_id" = ${member}::text))`;
}

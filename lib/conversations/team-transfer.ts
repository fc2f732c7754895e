import { db } from "../db/client";
import { AppError, invalidRequest } from "../core/errors";
import { log } from "../core/log";
import { appendTimelineEvent } from "./timeline";
import { routeNewConversation } from "./routing";

// Moving a conversation between teams (PUT /inbox/conversations/{id}/team; docs/teams.md). The move
// and its staff-only timeline event (`team_changed`) commit together. An open, unassigned
// conversation that lands in a round-robin team is then routed inside it, as a new one would be.

const conversationNotFound = () => new AppError("conversation_not_found", "No conversation has this identifier.");

export async function moveConversationToTeam(conversationId: string, teamId: string | null, actorMemberId: string | null) {
  const prisma = await db();
  const team = teamId === null ? null : await prisma.team.findUnique({ where: { id: teamId }, select: { id: true, name: true } });
  if (teamId !== null && !team) throw invalidRequest("No team has this team_id.", [{ path: "team_id", problem: "no team has this id" }]);
  const moved = await prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ team_id: string | null; team_name: string | null; status: string; assigned_member_id: string | null }[]>`
      SELECT c.team_id, t.name AS team_name, c.status, c.assigned_member_id
      FROM conversations c LEFT JOIN teams t ON t.id = c.team_id WHERE c.id = ${conversationId} FOR UPDATE OF c`;
    if (!row) throw conversationNotFound();
    if (row.team_id === teamId) return null;
    await tx.conversation.update({ where: { id: conversationId }, data: { teamId } });
    const details = { actorMemberId, previousTeamId: row.team_id, previousTeamName: row.team_name, teamId, teamName: team?.name ?? null };
    await appendTimelineEvent(conversationId, "team_changed", details, tx);
    return row;
  });
  if (moved && moved.status === "open" && moved.assigned_member_id === null && teamId !== null) {
    // The move stands whatever happens here: a failed assignment leaves it unassigned, for the team to take.
    await routeNewConversation(conversationId).catch((error: unknown) => log.error("round_robin_failed", { error }));
  }
  return { conversation_id: conversationId, team };
}

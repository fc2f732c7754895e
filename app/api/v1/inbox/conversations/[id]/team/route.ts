import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { conversationTeamBody } from "@/lib/contracts/teams";
import { moveConversationToTeam } from "@/lib/conversations/team-transfer";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PUT: inboxRoute({ sees: "conversation", body: conversationTeamBody }, async ({ staff, params, body }) =>
    ok(await moveConversationToTeam(params.id!, body.team_id, staff.member.id), "Team changed."),
  ),
});

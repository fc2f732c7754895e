import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { updateTeamBody } from "@/lib/contracts/teams";
import { deleteTeam, updateTeam } from "@/lib/teams/teams";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PATCH: inboxRoute({ role: "owner", body: updateTeamBody, audit: { action: "team.updated" } }, async ({ params, body }) => ok(await updateTeam(params.id!, body), "Team updated.")),
  DELETE: inboxRoute({ role: "owner", audit: { action: "team.deleted" } }, async ({ params }) => ok(await deleteTeam(params.id!), "Team deleted.")),
});

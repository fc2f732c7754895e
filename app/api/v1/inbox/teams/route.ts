import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { createTeamBody } from "@/lib/contracts/teams";
import { createTeam, listTeams } from "@/lib/teams/teams";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async () => ok(await listTeams())),
  POST: inboxRoute({ role: "owner", body: createTeamBody, audit: { action: "team.created" } }, async ({ body }) => created(await createTeam(body), "Team created.")),
});

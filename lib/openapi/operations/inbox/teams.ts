import { z } from "zod";
import { createTeamBody, deletedTeam, team, updateTeamBody } from "../../../contracts/teams";
import { routes } from "../../operation";

// Teams (decisions.md, round 4, "Teams"; docs/teams.md). The lists' `team` filter is on
// GET /inbox/conversations and GET /inbox/tickets.

export const inboxTeams = routes({
  "v1/inbox/teams": {
    GET: {
      summary: "Every team, by name",
      extension: true,
      answers: { 200: z.array(team) },
    },
    POST: {
      summary: "Create a team (owners)",
      description: "A name already used (compared without case): 409 `already_exists`. A `member_ids` entry that is no active member: 400 naming it.",
      extension: true,
      body: createTeamBody,
      answers: { 201: team },
      errors: ["already_exists"],
    },
  },
  "v1/inbox/teams/[id]": {
    PATCH: {
      summary: "Change a team (owners); `member_ids` replaces its members",
      extension: true,
      body: updateTeamBody,
      answers: { 200: team },
      errors: ["already_exists", "not_found"],
    },
    DELETE: {
      summary: "Delete a team (owners): what it held has no team any more, its sites no default team",
      extension: true,
      answers: { 200: deletedTeam },
      errors: ["not_found"],
    },
  },
});

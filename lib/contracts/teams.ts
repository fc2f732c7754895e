import { z } from "zod";
import { clientId, displayName } from "../core/validation/strings";
import { ASSIGNMENT_MODES, maxOpen } from "./routing";
import { isoTime, named, teamRef } from "./wire";

// Teams (decisions.md, round 4, "Teams"; docs/teams.md): members read them, owners write them.

export const MAX_TEAM_NAME = 60;
/** At most this many members in one team (far more than a team has). */
export const MAX_TEAM_MEMBERS = 500;

const memberIds = z
  .array(clientId(100))
  .max(MAX_TEAM_MEMBERS)
  .refine((ids) => new Set(ids).size === ids.length, "must not repeat a member");
const assignment = z.enum(ASSIGNMENT_MODES);

/** POST /inbox/teams */
export const createTeamBody = z.strictObject({
  name: displayName(MAX_TEAM_NAME),
  member_ids: memberIds.default([]),
  assignment: assignment.default("manual"),
  max_open: maxOpen.default(10),
});
export type CreateTeamInput = z.output<typeof createTeamBody>;

/** PATCH /inbox/teams/{id}: `member_ids` replaces the whole set. */
export const updateTeamBody = z
  .strictObject({ name: displayName(MAX_TEAM_NAME).optional(), member_ids: memberIds.optional(), assignment: assignment.optional(), max_open: maxOpen.optional() })
  .refine((body) => Object.keys(body).length > 0, "must change at least one of name, member_ids, assignment, max_open");
export type UpdateTeamInput = z.output<typeof updateTeamBody>;

/** PUT /inbox/conversations/{id}/team: null takes it out of every team. */
export const conversationTeamBody = z.strictObject({ team_id: clientId(100).nullable() });

/** The list's `?team=`: a team's id, or `none` for what has no team. */
export const teamFilter = clientId(100);

/** The case-insensitive key a team's name is unique by (the `name_key` column). */
export const teamNameKey = (value: string) => value.toLowerCase();

export const team = named(
  "Team",
  z.object({
    id: z.string(),
    name: z.string().max(MAX_TEAM_NAME),
    member_ids: z.array(z.string()).describe("by the order they joined"),
    assignment: assignment.describe("manual: staff assign; round_robin: new conversations go to the team's online members in turn"),
    max_open: z.int().min(1).max(1000).describe("round robin gives a member of this team no more open conversations than this"),
    created_at: isoTime,
  }),
);

export const deletedTeam = named("DeletedTeam", z.object({ id: z.string(), deleted: z.literal(true) }));

export { teamRef } from "./wire";

export const conversationTeam = named(
  "ConversationTeam",
  z.object({ conversation_id: z.string(), team: teamRef }),
);

import { z } from "zod";
import { conversationTeamBody, conversationTeam, createTeamBody, deletedTeam, team, updateTeamBody } from "../contracts/teams";
import type { Operation } from "./operation";

// Teams in the inbox's API (decisions.md, round 4, "Teams"; docs/teams.md). The lists' `team`
// filter is on GET /inbox/conversations (inbox-operations.ts) and GET /inbox/tickets.

const INBOX = "/api/v1/inbox";

export const teamOperations: Operation[] = [
  {
    method: "GET",
    path: `${INBOX}/teams`,
    family: "inbox",
    summary: "Every team, by name",
    extension: true,
    answers: { 200: z.array(team) },
  },
  {
    method: "POST",
    path: `${INBOX}/teams`,
    family: "inbox",
    summary: "Create a team (owners)",
    description: "A name already used (compared without case): 409 `already_exists`. A `member_ids` entry that is no active member: 400 naming it.",
    extension: true,
    body: createTeamBody,
    answers: { 201: team },
    errors: ["already_exists"],
  },
  {
    method: "PATCH",
    path: `${INBOX}/teams/{id}`,
    family: "inbox",
    summary: "Change a team (owners); `member_ids` replaces its members",
    extension: true,
    body: updateTeamBody,
    answers: { 200: team },
    errors: ["already_exists", "not_found"],
  },
  {
    method: "DELETE",
    path: `${INBOX}/teams/{id}`,
    family: "inbox",
    summary: "Delete a team (owners): what it held has no team any more, its sites no default team",
    extension: true,
    answers: { 200: deletedTeam },
    errors: ["not_found"],
  },
  {
    method: "PUT",
    path: `${INBOX}/conversations/{id}/team`,
    family: "inbox",
    summary: "Move a conversation to a team, or out of every team (`team_id: null`)",
    description:
      "Writes the staff timeline event `team_changed`. An open, unassigned conversation moved into a round-robin team is routed inside it. An unknown `team_id`: 400.",
    extension: true,
    body: conversationTeamBody,
    answers: { 200: conversationTeam },
    errors: ["conversation_not_found", "not_found"],
  },
];

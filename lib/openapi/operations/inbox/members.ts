import { z } from "zod";
import * as inbox from "../../../contracts/inbox-wire";
import { teamInviteBody, teamMemberBody } from "../../../contracts/staff";
import { routes } from "../../operation";

export const inboxMembers = routes({
  "v1/inbox/members": {
    GET: {
      summary: "The team (members who can sign in, were invited or deactivated; bots left out)",
      extension: true,
      answers: { 200: z.array(inbox.teamMember) },
    },
  },
  "v1/inbox/members/invites": {
    POST: {
      summary: "Invite someone to the team (owners); `send_email` also emails the link through the outbox",
      extension: true,
      body: teamInviteBody,
      answers: { 201: inbox.invite },
    },
    GET: {
      summary: "Pending invites: not accepted, revoked or expired, newest first (owners)",
      extension: true,
      answers: { 200: z.array(inbox.pendingInvite) },
    },
  },
  "v1/inbox/members/invites/[id]": {
    DELETE: {
      summary: "Revoke a pending invite: its link stops working (owners)",
      extension: true,
      answers: { 200: inbox.revokedInvite },
      errors: ["not_found"],
    },
  },
  "v1/inbox/members/[userID]": {
    PATCH: {
      summary: "Update a team member (owners): a changed email ends their sessions",
      extension: true,
      body: teamMemberBody,
      answers: { 200: inbox.teamMember },
      errors: ["member_not_found", "already_exists", "last_owner"],
    },
  },
  "v1/inbox/members/[userID]/deactivate": {
    POST: {
      summary: "Deactivate a team member (owners): sessions and invites end, open conversations are unassigned",
      extension: true,
      answers: { 200: inbox.teamMember },
      errors: ["member_not_found", "last_owner"],
    },
  },
});

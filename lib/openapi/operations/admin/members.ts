import { z } from "zod";
import * as inbox from "../../../contracts/inbox-wire";
import { createMemberBody, inviteMemberBody, updateMemberBody } from "../../../contracts/members";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const adminMembers = routes({
  "v1/admin/members": {
    POST: {
      summary: "Create a staff member",
      extension: true,
      body: createMemberBody,
      answers: { 201: wire.member },
      errors: ["already_exists"],
    },
    GET: {
      summary: "Every member (bots included), by name",
      extension: true,
      answers: { 200: z.array(wire.member) },
    },
  },
  "v1/admin/members/[userID]": {
    PATCH: {
      summary: "Update a staff member: removing or changing the email ends their inbox sessions",
      extension: true,
      body: updateMemberBody,
      answers: { 200: wire.member },
      errors: ["member_not_found", "already_exists"],
    },
  },
  "v1/admin/members/[userID]/invite": {
    POST: {
      summary: "A one-time invite link for a member (7 days); `send_email` also emails it through the outbox",
      extension: true,
      body: inviteMemberBody,
      answers: { 201: inbox.invite },
      errors: ["member_not_found", "already_exists"],
    },
  },
});

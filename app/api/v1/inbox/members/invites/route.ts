import { created } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { inviteMember } from "@/lib/staff/invites";
import { teamInviteBody } from "@/lib/contracts/staff";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "owner", body: teamInviteBody }, async ({ body }) => created(await inviteMember(body), "Invite created.")),
});

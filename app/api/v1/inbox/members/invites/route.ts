import { created } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/http/route";
import { inviteMember } from "@/lib/staff/invites";
import { teamInviteBody } from "@/lib/staff/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "owner", body: teamInviteBody }, async ({ body }) => created(await inviteMember(body), "Invite created.")),
});

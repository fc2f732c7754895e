import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { inviteCreated } from "@/lib/api/audit-actions";
import { teamInviteBody } from "@/lib/contracts/staff";
import { inviteToTeam } from "@/lib/email/invite-emails";
import { listPendingInvites } from "@/lib/staff/invites";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner" }, async () => ok(await listPendingInvites())),
  POST: inboxRoute({ role: "owner", body: teamInviteBody, audit: inviteCreated }, async ({ body }) => created(await inviteToTeam(body), "Invite created.")),
});

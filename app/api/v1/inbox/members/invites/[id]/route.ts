import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { revokeInvite } from "@/lib/staff/invites";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  DELETE: inboxRoute({ role: "owner", audit: { action: "invite.revoked" } }, async ({ params }) => ok(await revokeInvite(params.id!), "Invite revoked: its link no longer works.")),
});

import { created } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { inviteCreated } from "@/lib/api/audit-actions";
import { inviteMemberBody } from "@/lib/contracts/members";
import { inviteToTeam } from "@/lib/email/invite-emails";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ body: inviteMemberBody, audit: inviteCreated }, async ({ params, body }) =>
    created(await inviteToTeam({ ...body, memberId: params.userID! }), "Invite created."),
  ),
});

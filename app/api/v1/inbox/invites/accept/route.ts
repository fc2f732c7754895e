import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { inviteAccepted } from "@/lib/api/audit-actions";
import { acceptInvite } from "@/lib/staff/invites";
import { acceptInviteBody } from "@/lib/contracts/staff";
import { sessionCookie } from "@/lib/staff/sessions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "public", body: acceptInviteBody, audit: inviteAccepted }, async ({ body }) => {
    const { memberId, token } = await acceptInvite(body);
    return { ...ok({ member_id: memberId }, "Welcome to the inbox."), headers: { "Set-Cookie": sessionCookie(token) } };
  }),
});

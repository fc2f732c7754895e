import { assignConversation } from "@/lib/conversations/staff-commands";
import { assignBody } from "@/lib/contracts/inbox";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ sees: "conversation", body: assignBody }, async ({ staff, params, body }) => ok(await assignConversation(params.id!, body.member_id, staff.member.id), "Assigned.")),
});

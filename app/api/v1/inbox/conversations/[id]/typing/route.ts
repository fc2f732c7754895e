import { setStaffTyping } from "@/lib/conversations/staff-commands";
import { typingBody } from "@/lib/contracts/inbox";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ sees: "conversation", body: typingBody }, async ({ staff, params, body }) =>
    ok({ conversation_id: params.id!, typing: await setStaffTyping(staff.member.id, params.id!, body.typing) }),
  ),
});

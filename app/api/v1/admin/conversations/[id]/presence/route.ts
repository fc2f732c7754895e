import { setStaffTyping } from "@/lib/conversations/staff-commands";
import { assertMemberExists } from "@/lib/members/members";
import { staffPresenceBody } from "@/lib/contracts/conversations";
import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ body: staffPresenceBody }, async ({ params, body }) => {
    await assertMemberExists(body.actorId);
    const typing = await setStaffTyping(body.actorId, params.id!, body.typing);
    return ok({ conversation_id: params.id!, actor_id: body.actorId, typing }, "Presence set.");
  }),
});

import { sendStaffMessage } from "@/lib/conversations/staff-commands";
import { toStaffWireMessage } from "@/lib/conversations/message-view";
import { assertMemberExists } from "@/lib/members/members";
import { staffMessageBody } from "@/lib/contracts/conversations";
import { created, ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ body: staffMessageBody }, async ({ params, body }) => {
    await assertMemberExists(body.authorId);
    const sent = await sendStaffMessage(body.authorId, params.id!, body, toStaffWireMessage);
    return sent.duplicate ? ok(sent, "Already received.") : created(sent, "Message sent.");
  }),
});

import { postStaffMessage } from "@/lib/conversations/operator-conversations";
import { staffMessageBody } from "@/lib/contracts/conversations";
import { created, ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ body: staffMessageBody }, async ({ params, body }) => {
    const sent = await postStaffMessage(params.id!, body);
    return sent.duplicate ? ok(sent, "Already received.") : created(sent, "Message sent.");
  }),
});

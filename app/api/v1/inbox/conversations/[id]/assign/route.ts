import { assignConversation } from "@/lib/inbox/conversations";
import { assignBody } from "@/lib/inbox/schemas";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ body: assignBody }, async ({ params, body }) => ok(await assignConversation(params.id!, body.member_id), "Assigned.")),
});

import { closeConversation } from "@/lib/conversations/operator-conversations";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({}, async ({ params }) => ok(await closeConversation(params.id!), "Conversation closed.")),
});

import { closeConversation } from "@/lib/conversations/staff-commands";
import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({}, async ({ params }) => ok(await closeConversation(params.id!), "Conversation closed.")),
});

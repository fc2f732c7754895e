import { readConversation } from "@/lib/conversations/operator-conversations";
import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({}, async ({ params }) => ok(await readConversation(params.id!))),
});

import { listConversations } from "@/lib/conversations/operator-conversations";
import { siteQuery } from "@/lib/contracts/sites";
import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: siteQuery }, async ({ query }) => ok(await listConversations(query.site))),
});

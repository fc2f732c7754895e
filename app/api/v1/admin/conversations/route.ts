import { listConversations, siteQuery } from "@/lib/conversations/operator-conversations";
import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: siteQuery }, async ({ query }) => ok(await listConversations(query.site))),
});

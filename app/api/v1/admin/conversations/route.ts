import { listConversations } from "@/lib/conversations/operator-conversations";
import { siteQuery } from "@/lib/sites/schemas";
import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: siteQuery }, async ({ query }) => ok(await listConversations(query.site))),
});

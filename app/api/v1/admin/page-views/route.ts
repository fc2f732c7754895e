import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/http/route";
import { listPageViews } from "@/lib/page-views/page-views";
import { siteQuery } from "@/lib/sites/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: siteQuery }, async ({ query }) => ok(await listPageViews(query.site))),
});

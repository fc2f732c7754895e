import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { listPageViews } from "@/lib/page-views/page-views";
import { siteQuery } from "@/lib/contracts/sites";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: siteQuery }, async ({ query }) => ok(await listPageViews(query.site))),
});

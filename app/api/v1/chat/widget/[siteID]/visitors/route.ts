import { created } from "@/lib/http/envelope";
import { defineRoute, widgetRoute } from "@/lib/api/route";
import { recordPageView } from "@/lib/page-views/page-views";
import { pageViewBody } from "@/lib/contracts/page-views";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("widget", {
  POST: widgetRoute({ body: pageViewBody, rateLimit: "page_views" }, async ({ site, origin, body }) =>
    created(await recordPageView(site.id, origin, body), "Page view recorded."),
  ),
});

import { ok } from "@/lib/http/envelope";
import { defineRoute, widgetRoute } from "@/lib/api/route";
import { readWidgetArticle } from "@/lib/articles/widget-articles";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("widget", {
  GET: widgetRoute({ rateLimit: "articles" }, async ({ site, params }) => ok(await readWidgetArticle(site.id, params.id!))),
});

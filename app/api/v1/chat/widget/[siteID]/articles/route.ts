import { ok } from "@/lib/http/envelope";
import { defineRoute, widgetRoute } from "@/lib/api/route";
import { widgetArticlesQuery } from "@/lib/contracts/articles";
import { suggestArticles } from "@/lib/articles/widget-articles";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("widget", {
  GET: widgetRoute({ query: widgetArticlesQuery, rateLimit: "articles" }, async ({ site, query }) => ok(await suggestArticles(site, query))),
});

import { created } from "@/lib/http/envelope";
import { defineRoute, widgetRoute } from "@/lib/api/route";
import { articleFeedbackBody } from "@/lib/contracts/articles";
import { recordArticleFeedback } from "@/lib/articles/widget-articles";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("widget", {
  POST: widgetRoute({ body: articleFeedbackBody, rateLimit: "articles" }, async ({ site, params, body }) => created(await recordArticleFeedback(site.id, params.id!, body), "Thanks for the feedback.")),
});

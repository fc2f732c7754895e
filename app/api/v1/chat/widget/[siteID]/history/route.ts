import { conversationHistoryBody } from "@/lib/contracts/conversations";
import { listConversationHistory } from "@/lib/conversations/visitor-history";
import { ok } from "@/lib/http/envelope";
import { defineRoute, widgetRoute } from "@/lib/api/route";

// Rate-limited as starts, in the same bucket: listing mints tokens as starting does.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("widget", {
  POST: widgetRoute({ body: conversationHistoryBody, rateLimit: "starts" }, async ({ site, origin, body }) =>
    ok(await listConversationHistory({ site, origin, ...body }), "Conversations listed."),
  ),
});

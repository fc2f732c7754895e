import { afterResponse } from "@/lib/http/after-response";
import { answerAsDemoAgent, isDemoSite } from "@/lib/demo/demo-responder";
import { startConversationBody } from "@/lib/contracts/conversations";
import { startConversation } from "@/lib/conversations/start-conversation";
import { created } from "@/lib/http/envelope";
import { defineRoute, widgetRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("widget", {
  POST: widgetRoute({ body: startConversationBody, rateLimit: "starts" }, async ({ request, site, origin, body }) => {
    const started = await startConversation({ site, origin, ...body, userAgent: request.headers.get("user-agent") });
    const firstMessage = body.body;
    if (firstMessage && isDemoSite(site.id)) afterResponse(() => answerAsDemoAgent(started.conversation_id, firstMessage));
    return created(started, "Conversation started.");
  }),
});

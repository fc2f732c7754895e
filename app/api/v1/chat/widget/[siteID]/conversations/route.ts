import { afterResponse } from "@/lib/http/after-response";
import { botTurnAfterSend } from "@/lib/answers/answer-after-send";
import { startConversationBody } from "@/lib/contracts/conversations";
import { startConversation } from "@/lib/conversations/start-conversation";
import { created } from "@/lib/http/envelope";
import { defineRoute, widgetRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("widget", {
  POST: widgetRoute({ body: startConversationBody, rateLimit: "starts" }, async ({ request, site, origin, body }) => {
    const started = await startConversation({ site, origin, ...body, userAgent: request.headers.get("user-agent") });
    const botTurn = botTurnAfterSend(site, started.conversation_id, body.body);
    if (botTurn) afterResponse(botTurn);
    return created(started, "Conversation started.");
  }),
});

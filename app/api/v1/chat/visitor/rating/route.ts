import { created } from "@/lib/http/envelope";
import { defineRoute, visitorRoute } from "@/lib/api/route";
import { rateConversation } from "@/lib/conversations/rate-conversation";
import { rateConversationBody } from "@/lib/contracts/ratings";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("visitor", {
  POST: visitorRoute({ body: rateConversationBody }, async ({ visitor, body }) =>
    created(await rateConversation(visitor.conversation.id, body), "Thank you for the rating."),
  ),
});

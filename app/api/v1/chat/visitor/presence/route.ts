import { ok } from "@/lib/http/envelope";
import { defineRoute, visitorRoute } from "@/lib/api/route";
import { livePresence, setPresence } from "@/lib/conversations/presence";
import { presenceQuery } from "@/lib/contracts/presence";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("visitor", {
  GET: visitorRoute({ query: presenceQuery }, async ({ visitor, query }) => {
    const { id: conversationId, visitorId } = visitor.conversation;
    if (query.typing !== undefined) {
      await setPresence({ conversationId, actorId: visitorId, authorType: "visitor" }, query.typing);
    }
    return ok(await livePresence(conversationId, visitorId));
  }),
});

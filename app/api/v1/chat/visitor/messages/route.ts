import { afterResponse } from "@/lib/http/after-response";
import { answerAsDemoAgent, isDemoSite } from "@/lib/demo/demo-responder";
import { created, ok } from "@/lib/http/envelope";
import { defineRoute, visitorRoute } from "@/lib/api/route";
import { listMessagesQuery, sendMessageBody } from "@/lib/contracts/messages";
import { listVisitorMessages, sendVisitorMessage } from "@/lib/conversations/visitor-messages";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("visitor", {
  GET: visitorRoute({ query: listMessagesQuery }, async ({ visitor, query, request }) => ok(await listVisitorMessages(visitor, query, request.signal))),
  POST: visitorRoute({ body: sendMessageBody }, async ({ visitor, body }) => {
    const sent = await sendVisitorMessage(visitor, body);
    if (!sent.duplicate && isDemoSite(visitor.site.id)) afterResponse(() => answerAsDemoAgent(visitor.conversation.id, body.body));
    return sent.duplicate ? ok(sent, "Already received.") : created(sent, "Message sent.");
  }),
});

// A long-poll holds up to MAX_WAIT_SECONDS (25 s); serverless platforms (Vercel) must let it finish.
// A literal: Next.js reads route segment config statically.
export const maxDuration = 30;

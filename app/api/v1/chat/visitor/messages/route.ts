import { afterResponse } from "@/lib/http/after-response";
import { botTurnAfterSend } from "@/lib/answers/answer-after-send";
import { created, ok } from "@/lib/http/envelope";
import { defineRoute, visitorRoute } from "@/lib/api/route";
import { listMessagesQuery, sendMessageBody } from "@/lib/contracts/messages";
import { listVisitorMessages, sendVisitorMessage } from "@/lib/conversations/visitor-messages";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("visitor", {
  GET: visitorRoute({ query: listMessagesQuery }, async ({ visitor, query, request }) => ok(await listVisitorMessages(visitor, query, request.signal))),
  POST: visitorRoute({ body: sendMessageBody }, async ({ visitor, body }) => {
    const sent = await sendVisitorMessage(visitor, body);
    // The bot (sites in `bot` mode) answers after this reply is sent, never inside it.
    const botTurn = sent.duplicate ? null : botTurnAfterSend(visitor.site, visitor.conversation.id, body.body);
    if (botTurn) afterResponse(botTurn);
    return sent.duplicate ? ok(sent, "Already received.") : created(sent, "Message sent.");
  }),
});

// A long-poll holds up to MAX_WAIT_SECONDS (25 s); serverless platforms (Vercel) must let it finish.
// A literal: Next.js reads route segment config statically.
export const maxDuration = 30;

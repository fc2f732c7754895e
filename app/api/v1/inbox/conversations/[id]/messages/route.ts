import { postInboxMessage } from "@/lib/conversations/inbox-conversations";
import { inboxMessageBody } from "@/lib/contracts/inbox";
import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ body: inboxMessageBody }, async ({ staff, params, body }) => {
    const sent = await postInboxMessage(staff.member, params.id!, body);
    return sent.duplicate ? ok(sent, "Already received.") : created(sent, body.kind === "note" ? "Note added." : "Reply sent.");
  }),
});

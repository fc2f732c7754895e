import { sendFromComposer } from "@/lib/conversations/staff-commands";
import { toInboxWireMessage } from "@/lib/conversations/message-view";
import { inboxMessageBody } from "@/lib/contracts/inbox";
import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ sees: "conversation", body: inboxMessageBody }, async ({ staff, params, body }) => {
    const sent = await sendFromComposer(staff.member.id, params.id!, { body: body.body, kind: body.kind, clientId: body.client_id, attachments: body.attachments, mentions: body.mentions }, toInboxWireMessage);
    return sent.duplicate ? ok(sent, "Already received.") : created(sent, body.kind === "note" ? "Note added." : "Reply sent.");
  }),
});

import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { conversationLabelsBody } from "@/lib/contracts/labels";
import { setConversationLabels } from "@/lib/labels/conversation-labels";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PUT: inboxRoute({ sees: "conversation", body: conversationLabelsBody }, async ({ staff, params, body }) => ok(await setConversationLabels(params.id!, body.labels, staff.member.id), "Labels set.")),
});

import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { conversationAttributesBody } from "@/lib/contracts/attributes";
import { setConversationAttributes } from "@/lib/conversations/conversation-attributes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PATCH: inboxRoute({ sees: "conversation", body: conversationAttributesBody }, async ({ staff, params, body }) =>
    ok(await setConversationAttributes(params.id!, body, staff.member.id), "Attributes saved."),
  ),
});

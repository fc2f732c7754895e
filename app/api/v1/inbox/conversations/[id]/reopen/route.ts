import { reopenClosedConversation } from "@/lib/conversations/staff-commands";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ sees: "conversation" }, async ({ staff, params }) => ok(await reopenClosedConversation(params.id!, staff.member.id), "Conversation reopened.")),
});

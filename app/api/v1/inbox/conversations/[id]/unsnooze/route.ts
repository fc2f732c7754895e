import { unsnoozeConversation } from "@/lib/conversations/snooze";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ sees: "conversation" }, async ({ staff, params }) => ok(await unsnoozeConversation(params.id!, staff.member.id), "Unsnoozed.")),
});

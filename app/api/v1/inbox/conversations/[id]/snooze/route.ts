import { snoozeConversation } from "@/lib/conversations/snooze";
import { snoozeBody } from "@/lib/contracts/inbox";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ sees: "conversation", body: snoozeBody }, async ({ staff, params, body }) => ok(await snoozeConversation(params.id!, body.until, staff.member.id), "Snoozed.")),
});

import { snoozeConversation } from "@/lib/conversations/snooze";
import { snoozeBody } from "@/lib/contracts/inbox";
import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ body: snoozeBody }, async ({ params, body }) => ok(await snoozeConversation(params.id!, body.until, null), "Snoozed.")),
});

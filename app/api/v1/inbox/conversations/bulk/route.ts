import { runBulkAction } from "@/lib/inbox/bulk-actions";
import { bulkBody } from "@/lib/contracts/inbox";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ body: bulkBody }, async ({ staff, body }) => ok(await runBulkAction(staff.member, body), "Done.")),
});

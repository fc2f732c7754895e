import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { removeSuppression } from "@/lib/email/suppression/suppression-list";

// Audited with the entry's reason only: the address is personal data the log does not need.
const audit = { action: "suppression.removed", details: (_context: unknown, result: { reason: string }) => ({ reason: result.reason }) };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  DELETE: inboxRoute({ role: "owner", audit }, async ({ params }) =>
    ok(await removeSuppression(params.id!), "Removed from the suppression list: automatic emails reach this address again."),
  ),
});

import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { resendUnsent } from "@/lib/email/sending/resend";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "owner", audit: { action: "outbox.resent_all" } }, async () => ok(await resendUnsent(), "Every email not sent is queued to be sent again.")),
});

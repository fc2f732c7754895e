import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { resendEmail } from "@/lib/email/sending/resend";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "owner", audit: { action: "outbox.resent" } }, async ({ params }) => ok(await resendEmail(params.id!), "Queued to be sent again.")),
});

import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { resendEmail } from "@/lib/email/sending/resend";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ audit: { action: "outbox.resent" } }, async ({ params }) => ok(await resendEmail(params.id!), "Queued to be sent again.")),
});

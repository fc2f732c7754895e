import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { resendUnsent } from "@/lib/email/sending/resend";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ audit: { action: "outbox.resent_all" } }, async () => ok(await resendUnsent(), "Every email not sent is queued to be sent again.")),
});

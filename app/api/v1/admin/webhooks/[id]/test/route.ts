import { created } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { sendTestEvent } from "@/lib/webhooks/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ audit: { action: "webhook.tested" } }, async ({ params }) => created(await sendTestEvent(params.id!), "Test event queued.")),
});

import { created } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { sendTestEvent } from "@/lib/webhooks/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "owner", audit: { action: "webhook.tested" } }, async ({ params }) => created(await sendTestEvent(params.id!), "Test event queued.")),
});

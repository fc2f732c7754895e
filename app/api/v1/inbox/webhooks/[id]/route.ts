import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { updateWebhookBody } from "@/lib/contracts/webhooks";
import { deleteWebhook, updateWebhook } from "@/lib/webhooks/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PATCH: inboxRoute({ role: "owner", body: updateWebhookBody, audit: { action: "webhook.updated" } }, async ({ params, body }) => ok(await updateWebhook(params.id!, body), "Webhook updated.")),
  DELETE: inboxRoute({ role: "owner", audit: { action: "webhook.deleted" } }, async ({ params }) => ok(await deleteWebhook(params.id!), "Webhook deleted.")),
});

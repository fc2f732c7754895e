import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { webhookCreated } from "@/lib/api/audit-actions";
import { createWebhookBody } from "@/lib/contracts/webhooks";
import { createWebhook, listWebhooks } from "@/lib/webhooks/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner" }, async () => ok(await listWebhooks())),
  POST: inboxRoute({ role: "owner", body: createWebhookBody, audit: webhookCreated }, async ({ body }) =>
    created(await createWebhook(body), "Webhook created. Keep the secret: it is shown only now."),
  ),
});

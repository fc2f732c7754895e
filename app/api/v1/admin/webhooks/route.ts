import { created, ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { createWebhookBody } from "@/lib/contracts/webhooks";
import { createWebhook, listWebhooks } from "@/lib/webhooks/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({}, async () => ok(await listWebhooks())),
  POST: adminRoute({ body: createWebhookBody }, async ({ body }) =>
    created(await createWebhook(body), "Webhook created. Keep the secret: it is shown only now."),
  ),
});

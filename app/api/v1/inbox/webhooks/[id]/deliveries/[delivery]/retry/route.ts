import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { deliveryRetried } from "@/lib/api/audit-actions";
import { retryDelivery } from "@/lib/webhooks/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "owner", audit: deliveryRetried }, async ({ params }) => ok(await retryDelivery(params.id!, params.delivery!), "Delivery queued again.")),
});

import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { deliveryRetried } from "@/lib/api/audit-actions";
import { retryDelivery } from "@/lib/webhooks/webhooks";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ audit: deliveryRetried }, async ({ params }) => ok(await retryDelivery(params.id!, params.delivery!), "Delivery queued again.")),
});

import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { pushSubscriptionBody, pushUnsubscribeBody } from "@/lib/contracts/push";
import { subscribe, unsubscribe } from "@/lib/push/subscriptions";

// This browser's Web Push subscription for the signed-in member (lib/push).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ body: pushSubscriptionBody }, async ({ body, staff }) => ({
    status: 201,
    result: await subscribe(staff.member.id, body),
    message: "Subscribed to notifications.",
  })),
  DELETE: inboxRoute({ body: pushUnsubscribeBody }, async ({ body, staff }) => {
    await unsubscribe(staff.member.id, body.endpoint);
    return ok(null, "Unsubscribed.");
  }),
});

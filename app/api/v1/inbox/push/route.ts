import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { vapidKeys } from "@/lib/push/vapid";

// GET: the VAPID public key a browser subscribes with (its applicationServerKey).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async () => ok({ public_key: (await vapidKeys()).publicKey })),
});

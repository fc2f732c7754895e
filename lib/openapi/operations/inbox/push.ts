import { z } from "zod";
import { pushSubscriptionBody, pushUnsubscribeBody } from "../../../contracts/push";
import { routes } from "../../operation";

export const inboxPush = routes({
  "v1/inbox/push": {
    GET: {
      summary: "Web Push: the VAPID public key (the browser's applicationServerKey)",
      extension: true,
      answers: { 200: z.object({ public_key: z.string().describe("base64url, an uncompressed P-256 point") }) },
    },
  },
  "v1/inbox/push/subscriptions": {
    POST: {
      summary: "Web Push: subscribe this browser for the signed-in member",
      description:
        "The body is what PushSubscription.toJSON() gives. The endpoint must be a public https URL (the webhooks' SSRF rules; " +
        "WEBHOOK_ALLOW_PRIVATE_TARGETS and WEBHOOK_ALLOWED_TARGETS apply). The same endpoint again replaces its keys and owner.",
      extension: true,
      body: pushSubscriptionBody,
      answers: { 201: z.object({ id: z.string() }) },
    },
    DELETE: {
      summary: "Web Push: unsubscribe this browser",
      extension: true,
      body: pushUnsubscribeBody,
      answers: { 200: null },
      errors: ["not_found"],
    },
  },
});

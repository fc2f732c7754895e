import { z } from "zod";
import * as wire from "../../../contracts/notification-wire";
import { createWebhookBody, updateWebhookBody } from "../../../contracts/webhooks";
import { routes, type RouteOperations } from "../../operation";
import { ownersOnly, type StaffApi } from "./owners";

// Webhooks (lib/webhooks): the operator API's, and the same services and answers for owners in the inbox.
const webhooks = (api: StaffApi): RouteOperations => ({
  [`v1/${api}/webhooks`]: {
    GET: {
      summary: `Registered webhooks, oldest first (no secrets), each with its health${ownersOnly(api)}`,
      extension: true,
      answers: { 200: z.array(wire.webhook) },
    },
    POST: {
      summary: `Register a webhook${ownersOnly(api)}`,
      description: "The answer carries the signing secret; it is shown only here.",
      extension: true,
      body: createWebhookBody,
      answers: { 201: wire.createdWebhook },
    },
  },
  [`v1/${api}/webhooks/[id]`]: {
    PATCH: {
      summary: `Update a webhook (\`description: null\` clears it)${ownersOnly(api)}`,
      extension: true,
      body: updateWebhookBody,
      answers: { 200: wire.webhook },
      errors: ["not_found"],
    },
    DELETE: {
      summary: `Delete a webhook and its deliveries${ownersOnly(api)}`,
      extension: true,
      answers: { 200: wire.deletedWebhook },
      errors: ["not_found"],
    },
  },
  [`v1/${api}/webhooks/[id]/deliveries`]: {
    GET: {
      summary: `A webhook's newest 100 deliveries, newest first${ownersOnly(api)}`,
      extension: true,
      answers: { 200: z.array(wire.webhookDelivery) },
      errors: ["not_found"],
    },
  },
  [`v1/${api}/webhooks/[id]/deliveries/[delivery]/retry`]: {
    POST: {
      summary: `Queue one more attempt of a delivery now (same event id)${ownersOnly(api)}`,
      extension: true,
      answers: { 200: wire.webhookDelivery },
      errors: ["not_found"],
    },
  },
  [`v1/${api}/webhooks/[id]/test`]: {
    POST: {
      summary: `Send a test event to this webhook${ownersOnly(api)}`,
      description:
        "A `webhook.test` delivery (`data: {webhook_id}`) to this webhook only, whatever events it takes, through the real delivery path: signed, attempted now, retried on the usual schedule; its answer updates the webhook's `health`.",
      extension: true,
      answers: { 201: wire.webhookDelivery },
      errors: ["not_found"],
    },
  },
});

export const webhookOperations = routes({ ...webhooks("admin"), ...webhooks("inbox") });

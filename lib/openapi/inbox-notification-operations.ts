import { z } from "zod";
import { createWebhookBody, updateWebhookBody } from "../webhooks/schemas";
import * as wire from "./notification-wire";
import type { Operation } from "./operations";

// The inbox's settings for notifications (owners, session cookie): webhooks and the email outbox.
// The same services and answers as the operator routes in notification-operations.ts.

const INBOX = "/api/v1/inbox";

export const inboxNotificationOperations: Operation[] = [
  {
    method: "GET",
    path: `${INBOX}/webhooks`,
    family: "inbox",
    summary: "Registered webhooks, oldest first, no secrets (owners)",
    extension: true,
    answers: { 200: z.array(wire.webhook) },
  },
  {
    method: "POST",
    path: `${INBOX}/webhooks`,
    family: "inbox",
    summary: "Register a webhook (owners)",
    description: "The answer carries the signing secret; it is shown only here.",
    extension: true,
    body: createWebhookBody,
    answers: { 201: wire.createdWebhook },
  },
  {
    method: "PATCH",
    path: `${INBOX}/webhooks/{id}`,
    family: "inbox",
    summary: "Update a webhook (owners; `description: null` clears it)",
    extension: true,
    body: updateWebhookBody,
    answers: { 200: wire.webhook },
    errors: ["not_found"],
  },
  {
    method: "DELETE",
    path: `${INBOX}/webhooks/{id}`,
    family: "inbox",
    summary: "Delete a webhook and its deliveries (owners)",
    extension: true,
    answers: { 200: wire.deletedWebhook },
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/webhooks/{id}/deliveries`,
    family: "inbox",
    summary: "A webhook's newest 100 deliveries, newest first (owners)",
    extension: true,
    answers: { 200: z.array(wire.webhookDelivery) },
    errors: ["not_found"],
  },
  {
    method: "POST",
    path: `${INBOX}/webhooks/{id}/deliveries/{delivery}/retry`,
    family: "inbox",
    summary: "Queue one more attempt of a delivery now, same event id (owners)",
    extension: true,
    answers: { 200: wire.webhookDelivery },
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/outbox`,
    family: "inbox",
    summary: "The newest 200 emails, newest first, sent or not (owners)",
    extension: true,
    answers: { 200: z.array(wire.outboxEmail) },
  },
];

import { z } from "zod";
import { ticketReplyBody } from "../contracts/tickets";
import { outboxQuery } from "../contracts/outbox";
import { createWebhookBody, updateWebhookBody } from "../contracts/webhooks";
import * as wire from "../contracts/notification-wire";
import type { Operation } from "./operation";

// Webhooks, the outbox and ticket replies (lib/webhooks, lib/email, lib/tickets/ticket-replies.ts).
// The unsubscribe link (app/api/v1/email/unsubscribe) is not here: it answers HTML pages for
// people and mail clients, not the JSON envelope, and its GET and POST are not route-family
// handlers (the coverage test in tests/contract/openapi.test.ts skips them).

const ADMIN = "/api/v1/admin";

export const notificationOperations: Operation[] = [
  {
    method: "GET",
    path: `${ADMIN}/webhooks`,
    family: "admin",
    summary: "Registered webhooks, oldest first (no secrets), each with its health",
    extension: true,
    answers: { 200: z.array(wire.webhook) },
  },
  {
    method: "POST",
    path: `${ADMIN}/webhooks`,
    family: "admin",
    summary: "Register a webhook",
    description: "The answer carries the signing secret; it is shown only here.",
    extension: true,
    body: createWebhookBody,
    answers: { 201: wire.createdWebhook },
  },
  {
    method: "PATCH",
    path: `${ADMIN}/webhooks/{id}`,
    family: "admin",
    summary: "Update a webhook (`description: null` clears it)",
    extension: true,
    body: updateWebhookBody,
    answers: { 200: wire.webhook },
    errors: ["not_found"],
  },
  {
    method: "DELETE",
    path: `${ADMIN}/webhooks/{id}`,
    family: "admin",
    summary: "Delete a webhook and its deliveries",
    extension: true,
    answers: { 200: wire.deletedWebhook },
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${ADMIN}/webhooks/{id}/deliveries`,
    family: "admin",
    summary: "A webhook's newest 100 deliveries, newest first",
    extension: true,
    answers: { 200: z.array(wire.webhookDelivery) },
    errors: ["not_found"],
  },
  {
    method: "POST",
    path: `${ADMIN}/webhooks/{id}/deliveries/{delivery}/retry`,
    family: "admin",
    summary: "Queue one more attempt of a delivery now (same event id)",
    extension: true,
    answers: { 200: wire.webhookDelivery },
    errors: ["not_found"],
  },
  {
    method: "POST",
    path: `${ADMIN}/webhooks/{id}/test`,
    family: "admin",
    summary: "Send a test event to this webhook",
    description:
      "A `webhook.test` delivery (`data: {webhook_id}`) to this webhook only, whatever events it takes, through the real delivery path: signed, attempted now, retried on the usual schedule; its answer updates the webhook's `health`.",
    extension: true,
    answers: { 201: wire.webhookDelivery },
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${ADMIN}/outbox`,
    family: "admin",
    summary: "The newest 200 emails, newest first, sent or not (or those in one state)",
    description: "`status`: `not_sent`, `pending` (being sent, no error), `failed` (pending with an SMTP error: retried, and may be resent), `sent` or `suppressed`.",
    extension: true,
    query: outboxQuery,
    answers: { 200: z.array(wire.outboxEmail) },
  },
  {
    method: "POST",
    path: `${ADMIN}/outbox/{id}/resend`,
    family: "admin",
    summary: "Send an email again that was not sent or failed",
    description:
      "Only `not_sent` and failed emails: a sent, suppressed (over its recipient's cap) or sending one is 400, and so is any email while SMTP_URL is unset.",
    extension: true,
    answers: { 200: wire.resentEmail },
    errors: ["not_found"],
  },
  {
    method: "POST",
    path: `${ADMIN}/outbox/resend`,
    family: "admin",
    summary: "Send again every email not sent or failed (never a suppressed one)",
    description: "400 while SMTP_URL is unset.",
    extension: true,
    answers: { 200: wire.resentEmails },
  },
  {
    method: "POST",
    path: `${ADMIN}/tickets/{id}/replies`,
    family: "admin",
    summary: "Reply to a ticket (emailed to the filer)",
    extension: true,
    body: ticketReplyBody,
    answers: { 201: wire.ticketReply },
    errors: ["not_found", "member_not_found"],
  },
  {
    method: "GET",
    path: "/api/v1/cron/dispatch",
    family: "cron",
    summary: "Deliver what is due (Vercel Cron, every minute)",
    description:
      "Runs pg-boss's maintenance, then delivery rounds (the outbox, due jobs, due webhook attempts) until one finds nothing or about 40 s have passed.",
    extension: true,
    answers: { 200: wire.drainedDeliveries },
  },
  {
    method: "POST",
    path: "/api/v1/inbound/email",
    family: "inbound",
    summary: "Receive an email forwarded as raw MIME (replies by email)",
    description:
      "For providers that forward inbound mail as it was received (message/rfc822, at most 25 MB). The answer says what became of it; a refusal is a 200 too, so the provider does not retry it.",
    extension: true,
    rawBody: ["message/rfc822"],
    answers: { 200: wire.inboundEmailOutcome },
    errors: ["payload_too_large"],
  },
];

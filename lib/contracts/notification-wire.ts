import { z } from "zod";
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from "./webhooks";
import { isoTime, named } from "./wire";

// The wire shapes of the notification routes' answers (lib/webhooks, lib/email, ticket replies),
// registered beside those of lib/contracts/wire.ts. Checked against every answer of the integration
// suite, like the others.

export const webhook = named(
  "Webhook",
  z.object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    description: z.string().nullable(),
    created_at: isoTime,
    updated_at: isoTime,
    health: named(
      "WebhookHealth",
      z.object({
        last_attempt_at: isoTime.nullable().describe("the last attempt of any delivery (test events included); null before the first"),
        last_result: z.enum(["succeeded", "failed"]).nullable(),
        last_response_status: z.int().nullable().describe("the last answer's HTTP status; null after a timeout, a connection error or a refused target"),
        last_error: z.string().nullable(),
        last_success_at: isoTime.nullable(),
        failures_in_a_row: z.int().min(0).describe("failed attempts since the last success"),
        url_refused: z
          .string()
          .nullable()
          .describe(
            "why the stored URL no longer passes the target rules (WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_ALLOWED_TARGETS), as checked at each start; null while it passes. Meanwhile nothing is attempted: deliveries wait and new events are not queued for it. A PATCH with a URL that passes clears it",
          ),
      }),
    ),
  }),
);

export const createdWebhook = named(
  "CreatedWebhook",
  webhook.extend({
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{43}=$/)
      .describe("`whsec_` + base64 of 32 random bytes; shown only in this answer"),
  }),
);

export const deletedWebhook = named("DeletedWebhook", z.object({ id: z.string(), deleted: z.literal(true) }));

export const webhookDelivery = named(
  "WebhookDelivery",
  z.object({
    id: z.string(),
    event_id: z.string().describe("the `webhook-id` header: the same on every attempt"),
    type: z.enum([...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT]).describe("`webhook.test`: a test event an owner sent"),
    attempt: z.int().min(0).describe("attempts made so far"),
    status: z.enum(["pending", "succeeded", "failed"]),
    response_status: z.int().nullable().describe("the last answer's HTTP status; null after a timeout, a connection error or a refused target"),
    error: z.string().nullable(),
    next_attempt_at: isoTime.nullable().describe("set while `pending`"),
    created_at: isoTime,
    updated_at: isoTime,
  }),
);

export const outboxEmail = named(
  "OutboxEmail",
  z.object({
    id: z.string(),
    kind: z.enum(["staff_alert", "visitor_follow_up", "visitor_transcript", "ticket_acknowledgement", "ticket_reply", "staff_invite", "staff_mention", "staff_sla_breach"]),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    status: z
      .enum(["not_sent", "pending", "sent", "suppressed"])
      .describe("`not_sent`: no SMTP_URL, the email stays here; `suppressed`: an automatic email over its recipient's cap or to an address on the suppression list, never sent"),
    sent: z.boolean(),
    suppressed_reason: z
      .enum(["hourly_cap", "daily_cap", "unsubscribe", "hard_bounce", "complaint"])
      .nullable()
      .describe(
        "when `suppressed`: the per-recipient cap it hit (EMAIL_RECIPIENT_HOURLY_CAP or EMAIL_RECIPIENT_DAILY_CAP) or the suppression list's reason for the address",
      ),
    attempts: z.int().min(0),
    error: z.string().nullable(),
    conversation_id: z.string().nullable(),
    ticket_id: z.string().nullable(),
    created_at: isoTime,
    sent_at: isoTime.nullable(),
  }),
);

export const resentEmail = named("ResentEmail", z.object({ id: z.string(), status: z.literal("pending") }));
export const resentEmails = named("ResentEmails", z.object({ resent: z.int().min(0).describe("emails queued to be sent again") }));

export const ticketReply = named(
  "TicketReply",
  z.object({
    id: z.string(),
    ticket_id: z.string(),
    ticket_number: z.int().min(1),
    author_id: z.string(),
    author_name: z.string(),
    body: z.string(),
    emailed_to: z.string().describe("the ticket's email, where the reply is sent"),
    created_at: isoTime,
  }),
);

export const drainedDeliveries = named(
  "DrainedDeliveries",
  z.object({
    events: z.int().min(0).describe("outbox events dispatched"),
    jobs: z.int().min(0).describe("queue jobs run: staff alerts, follow-ups, email sends"),
    deliveries: z.int().min(0).describe("webhook attempts made"),
    rounds: z.int().min(1).describe("rounds run; the last found nothing, or the time budget ran out"),
  }),
);

export const inboundEmailOutcome = named(
  "InboundEmailOutcome",
  z.object({
    outcome: z
      .enum(["accepted", "unverified", "ignored", "refused"])
      .describe("`unverified`: DMARC failed, the visitor's reply was kept as a staff-only note"),
    reason: z
      .string()
      .nullable()
      .describe(
        "why it was not accepted: duplicate, auto_submitted, precedence, x_autoreply, empty_return_path, replies_off, no_reply_address, several_reply_addresses, invalid_token, recipient_unknown, sender_mismatch, envelope_sender_mismatch, dmarc_fail, conversation_closed, empty; for mail to a bounce address: hard_bounce or complaint (accepted: the recipient is suppressed), bounce_delayed, bounce_no_failure, feedback_not_abuse, not_a_report (ignored), invalid_bounce_token, several_bounce_addresses, bounce_email_unknown (refused)",
      ),
    conversation_id: z.string().nullable(),
    ticket_id: z.string().nullable(),
    skipped_files: z
      .array(z.object({ name: z.string(), reason: z.enum(["type_not_allowed", "too_large", "too_many", "signature_mismatch", "ticket_thread", "unverified"]) }))
      .describe("attachments left out, each named in the posted message"),
  }),
);

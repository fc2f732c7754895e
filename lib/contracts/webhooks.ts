import { z } from "zod";
import { clientId, singleLineOptionalText } from "../core/validation/strings";
import { MESSAGE_CREATED } from "./events";

export const WEBHOOK_EVENTS = [
  "conversation.started",
  MESSAGE_CREATED,
  "conversation.closed",
  "ticket.created",
  "attachment.uploaded",
  "conversation.rated",
  "privacy.erased",
  "sla.breached",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The event "send a test event" delivers: to its one webhook only, whatever events it takes. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const MAX_WEBHOOK_URL_LENGTH = 2000;
export const MAX_DESCRIPTION_LENGTH = 500;

const url = clientId(MAX_WEBHOOK_URL_LENGTH);
const events = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1)
  .max(WEBHOOK_EVENTS.length)
  .refine((list) => new Set(list).size === list.length, "must not repeat an event");
const description = singleLineOptionalText(MAX_DESCRIPTION_LENGTH).nullable();

export const createWebhookBody = z.strictObject({ url, events, description: description.optional() });
export type CreateWebhookInput = z.output<typeof createWebhookBody>;

export const updateWebhookBody = z
  .strictObject({ url: url.optional(), events: events.optional(), description: description.optional() })
  .refine((body) => Object.keys(body).length > 0, "must change at least one of url, events, description");
export type UpdateWebhookInput = z.output<typeof updateWebhookBody>;

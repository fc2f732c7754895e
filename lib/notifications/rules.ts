import type { NotificationEventType, OutboxEvent } from "../contracts/notification-events";
import { queueFollowUpCheck } from "../email/follow-ups";
import type { EmailDraft } from "../email/sending/outbox";
import { queueEmailSend } from "../email/sending/resend";
import { queueStaffAlertCheck } from "../email/staff-alerts";
import { acknowledgeTicket, emailTicketReply } from "../email/ticket-emails";
import type { JobSpec } from "../jobs/queue";
import { queueAssignmentPush, queueMentionPush, queueNewConversationPush } from "../push/conversation-pushes";
import { deliverToWebhooks, wakeDeliveryLoop, type DeliveryDraft } from "../webhooks/webhook-consumer";
import type { BatchFacts } from "./batch-facts";
import { queueUnsnoozeCheck } from "../conversations/snooze";
import { emailMentionedMember } from "../email/mention-emails";
import { queueRuleEvents } from "../rules/rule-events";
import { alertSlaBreach } from "./sla-breach-alert";
import { MESSAGE_CREATED } from "../contracts/events";

// What each event of the outbox causes. The triggers write an event in the transaction of the
// change (docs/notifications.md, "How an event travels"); the dispatcher (./dispatcher.ts) hands
// each claimed event to the consumers listed here, in this order, and writes what they answer in
// the transaction that deletes the event. Each consumer lives with its domain and decides there;
// none writes anything itself, so an event is acted on once even when two instances claim it.

/** What a consumer asks to be written, in the transaction that deletes its event. */
export interface Effects {
  /** Webhook deliveries (lib/webhooks/delivery-loop.ts attempts them). */
  deliveries?: DeliveryDraft[];
  /** Emails, stored with their send jobs (lib/email/sending/outbox.ts, `storeEmails`). */
  emails?: EmailDraft[];
  /** Jobs of the queue (lib/jobs/queue.ts), e.g. a staff-alert check. */
  jobs?: JobSpec[];
  /** Wake this instance's delivery loop after the commit. */
  wakeDeliveries?: boolean;
}

/**
 * Reads what it needs (the batch's facts, or a statement of its own, such as the payload of a
 * ticket) and answers what to write, or null for nothing.
 */
export type Consumer = (event: OutboxEvent, batch: BatchFacts) => Effects | null | Promise<Effects | null>;

export const RULES: Record<NotificationEventType, readonly Consumer[]> = {
  // A public message (the trigger leaves out notes: isVisibleToVisitor), from a visitor or a staff member:
  [MESSAGE_CREATED]: [
    deliverToWebhooks,    // a delivery to each webhook that takes message.created
    queueStaffAlertCheck, // from a visitor, while some member takes alerts: a staff-alert check, now
    queueFollowUpCheck,   // from staff, when the visitor left an email: a follow-up check followUpDelayMs (10 min) later
    queueRuleEvents,      // from a visitor (message.created) or a close/reopen's system line not made by a rule: the rules' job (docs/rules.md)
  ],
  "conversation.started": [deliverToWebhooks, queueNewConversationPush, queueRuleEvents], // members with no inbox tab open get a Web Push; the conversation.created rules
  "conversation.closed": [deliverToWebhooks],
  "conversation.rated": [deliverToWebhooks], // a visitor's rating after a close
  "privacy.erased": [deliverToWebhooks], // an erasure request done: its kind and counts, so the owner's other systems can follow
  "ticket.created": [deliverToWebhooks, acknowledgeTicket], // the filer gets "[#N] <subject>"
  "attachment.uploaded": [deliverToWebhooks],
  "ticket.replied": [emailTicketReply], // a staff reply to a ticket: the filer gets "Re: [#N] <subject>"
  "delivery.retry": [wakeDeliveryLoop], // an operator's retry (or test event) made a delivery due: this instance's delivery loop claims it now
  "email.send": [queueEmailSend], // an email stored by a request (a resend, an invite): its send job, now
  "conversation.snoozed": [queueUnsnoozeCheck], // a snooze: the job that wakes it, due at its time
  "mention.created": [emailMentionedMember, queueMentionPush], // a note's @mention: an email to the member when away from the inbox, and a Web Push
  "conversation.assigned": [queueAssignmentPush], // an assignment by a person or by routing (not to oneself): a Web Push to the assignee
  "sla.breached": [deliverToWebhooks, alertSlaBreach, queueRuleEvents], // a breach recorded by the SLA sweep: webhooks, the assignee's push (else email), the sla.breached rules
};

/** The consumers of an event type; none for a type this version does not know (the event is deleted). */
export function consumersOf(type: string): readonly Consumer[] {
  return Object.hasOwn(RULES, type) ? RULES[type as NotificationEventType] : [];
}

import type { InboxEvent } from "../contracts/inbox-events";
import type { SessionsEnded } from "../contracts/events";

// The typed events the listener delivers. The channels, their payloads and the note filter are the
// vocabulary of lib/contracts/events.ts (docs/architecture.md, "When a row is stored, who hears it"):
// - MESSAGE_CHANNEL (the widget's hot statements) becomes `message` and `staff_typing`, heard by
//   the widget's long-polls (message-signals.ts);
// - INBOX_CHANNEL (the triggers, publishSessionsEnded) becomes `inbox` and `sessions_ended`, heard
//   by the inbox's event streams (inbox-signals.ts).

export type { SessionsEnded };

/** Each kind of event the listener delivers, and its argument. */
export interface RealtimeEvents {
  /** A public message was stored in the conversation. */
  message: string;
  /** A staff member's typing presence changed in the conversation. */
  staff_typing: string;
  /** A message, conversation change or visitor typing, for the inbox. */
  inbox: InboxEvent;
  /** Sessions were deleted (sign-out, deactivation…): their inbox streams end, on every instance. */
  sessions_ended: SessionsEnded;
}
export type RealtimeEventKind = keyof RealtimeEvents;

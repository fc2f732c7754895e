import { randomUUID } from "node:crypto";

// Which emails the service writes, and the id each is stored under in the outbox: a leaf of
// lib/email/ that every room of it may read (docs/architecture.md).

export type EmailKind =
  | "staff_alert"
  | "visitor_follow_up"
  | "visitor_transcript"
  | "ticket_acknowledgement"
  | "ticket_reply"
  | "staff_invite"
  | "staff_mention"
  | "staff_sla_breach";

/**
 * The automatic emails to addresses anyone can type into a form (decisions.md, "Email in both
 * directions"): at most EMAIL_RECIPIENT_HOURLY_CAP an hour and EMAIL_RECIPIENT_DAILY_CAP a day to
 * one address per site, the rest `suppressed`. Staff replies are written by a person and never
 * capped; staff alerts go to members, whose addresses the operator set, and are already limited
 * per conversation and member (staff-alerts.ts): neither is capped nor counted. The same kinds, and
 * only they, obey the suppression list (suppression/suppressions.ts).
 */
export const CAPPED_KINDS: readonly EmailKind[] = ["ticket_acknowledgement", "visitor_follow_up", "visitor_transcript"];

/** Outbox ids are `em_<uuid>`: links and bounce addresses name an email by it (the UUID packs into 16 bytes). */
export const newEmailId = () => `em_${randomUUID()}`;

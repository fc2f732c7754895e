import type { z } from "zod";
import type { Conversation } from "../generated/prisma/client";
import type { inboxConversation } from "../contracts/inbox-wire";
import type { conversation } from "../contracts/wire";
import { storedAttributes, storedConsent } from "../attributes/stored";

// The wire shape of a conversation (lib/contracts/wire.ts), built only here: the operator API's,
// and from it the inbox's and the webhooks'. Messages are added by the caller (lib/conversations/message-view.ts).

export type WireConversation = z.infer<typeof conversation>;
/** The inbox's, without its `messages`, its visitor context (lib/visitors), its metrics (lib/reports) and its SLA clock (lib/sla). */
export type InboxWireConversation = Omit<z.infer<typeof inboxConversation>, "messages" | "visitor" | "visitor_conversations" | "metrics" | "sla">;
/** `conversation.started` and `conversation.closed`'s conversation. */
export type WebhookWireConversation = Omit<WireConversation, "last_sequence" | "visitor_seen_sequence" | "user_id" | "identity_verified">;

export type ConversationRow = Pick<
  Conversation,
  | "id"
  | "siteId"
  | "status"
  | "snoozedUntil"
  | "origin"
  | "visitorId"
  | "visitorName"
  | "visitorEmail"
  | "offline"
  | "lastSequence"
  | "visitorSeenSequence"
  | "createdAt"
  | "closedAt"
  | "userId"
  | "identityVerified"
>;

export function toWireConversation(row: ConversationRow): WireConversation {
  return {
    id: row.id,
    site_id: row.siteId,
    status: row.status as WireConversation["status"], // written only as "open", "snoozed" or "closed"
    snoozed_until: row.snoozedUntil?.toISOString() ?? null,
    origin: row.origin,
    visitor_id: row.visitorId,
    visitor_name: row.visitorName,
    visitor_email: row.visitorEmail,
    offline: row.offline,
    last_sequence: row.lastSequence,
    visitor_seen_sequence: row.visitorSeenSequence,
    created_at: row.createdAt.toISOString(),
    closed_at: row.closedAt?.toISOString() ?? null,
    user_id: row.userId,
    identity_verified: row.identityVerified,
  };
}

/** The inbox's: the site's name, the assigned member, its team, whether the visitor is typing, its labels (by name). */
export function toInboxWireConversation(
  row: ConversationRow & {
    site: { name: string };
    assignedMember: { id: string; name: string } | null;
    team: { id: string; name: string } | null;
    attributes: unknown;
    consent: unknown;
    labels: { label: { id: string; name: string; color: string } }[];
  },
  visitorTyping: boolean,
): InboxWireConversation {
  const { id, site_id, ...rest } = toWireConversation(row);
  return {
    id,
    site_id,
    site_name: row.site.name,
    ...rest,
    assigned_member: row.assignedMember,
    team: row.team,
    attributes: storedAttributes(row.attributes),
    consent: storedConsent(row.consent),
    visitor_typing: visitorTyping,
    labels: row.labels.map(({ label }) => ({ id: label.id, name: label.name, color: label.color })),
  };
}

export function toWebhookWireConversation(row: ConversationRow): WebhookWireConversation {
  const { last_sequence, visitor_seen_sequence, user_id, identity_verified, ...rest } = toWireConversation(row);
  return rest;
}

import { z } from "zod";
import { STAFF_ROLES } from "./members";
import { ticketReply } from "./notification-wire";
import { conversation, conversationMetrics, isoTime, named, relatedConversation, staffMessage, ticket, ticketAttachment, visitorContext } from "./wire";
import { label } from "./workspace-wire";
import { availability } from "./routing";
import { teamRef } from "./teams";
import { conversationAttributes, conversationConsent } from "./attributes";
import { conversationSla } from "./sla";

// The wire shapes of the staff inbox's answers (/api/v1/inbox: lib/inbox, lib/staff) and of the
// operator API's inbox additions, registered beside those of lib/contracts/wire.ts. Checked against
// every answer of the integration suite, like the others.

const role = z.enum(STAFF_ROLES);

export const signedIn = named("SignedIn", z.object({ member_id: z.string() }));

export const sessionMember = named(
  "SessionMember",
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    role,
    hasPicture: z.boolean().describe("camelCase, as the inbox pages read it"),
  }),
);

export const invite = named(
  "Invite",
  z.object({
    id: z.string().describe("the pending invite, for revoking it"),
    invite_url: z.url().describe("one-time link to /inbox/invite?code=…"),
    expires_at: isoTime.describe("7 days after creation"),
    emailed: z.boolean().describe("the link was also emailed to the invitee, through the outbox (`send_email`)"),
  }),
);

export const pendingInvite = named(
  "PendingInvite",
  z.object({
    id: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    role,
    member_id: z.string().nullable().describe("the existing member the invite is for; null: accepting creates one"),
    created_at: isoTime,
    expires_at: isoTime,
  }),
);

export const revokedInvite = named("RevokedInvite", z.object({ id: z.string(), revoked: z.literal(true) }));

export const inboxConversationSummary = named(
  "InboxConversationSummary",
  conversation.pick({ id: true, site_id: true, status: true, snoozed_until: true, visitor_name: true, visitor_email: true, created_at: true }).extend({
    waiting_since: isoTime.nullable().describe("when the visitor's oldest unanswered public message was sent; null when staff wrote the last public message"),
    site_name: z.string(),
    assigned_member_id: z.string().nullable(),
    assigned_member_name: z.string().nullable(),
    last_activity_at: isoTime,
    unread_count: z.int().min(0).describe("visitor messages after this member's read position"),
    last_message: z
      .object({
        body: z.string().max(140),
        author_type: z.enum(["visitor", "staff", "system"]),
        kind: z.enum(["message", "note"]),
        author_name: z.string().describe("the member's name, or the visitor's display name"),
      })
      .nullable()
      .describe("the last public message (no note, no system line); null before any"),
    identity_verified: z.boolean().describe("the visitor's identity was verified (a valid user_hash at the start)"),
    labels: z.array(label).describe("by name"),
    visitor_display_name: z.string().describe("the given name, else the visitor's stable generated one"),
    visitor_avatar_color: z.string().describe("#rrggbb, stable per visitor"),
    rating: z.object({ score: z.int().min(1).max(5) }).nullable().describe("the visitor's latest rating (of the latest rated close); null before any"),
    team: teamRef,
    attributes: conversationAttributes,
    consent: conversationConsent,
    sla: conversationSla,
  }),
);

export const inboxConversationPage = named(
  "InboxConversationPage",
  z.object({
    items: z.array(inboxConversationSummary).describe("newest activity first (`sort=waiting`: longest waiting first; `sort=sla`: soonest SLA due time first)"),
    next_cursor: z.string().nullable().describe("`<last_activity_at ms>_<id>`; null on the last page"),
    unread_total: z.int().min(0).describe("open conversations with visitor messages this member has not read"),
  }),
);

export const inboxMessage = named("InboxMessage", staffMessage.omit({ note_number: true }));

export const inboxConversation = named(
  "InboxConversation",
  conversation.extend({
    site_name: z.string(),
    assigned_member: z.object({ id: z.string(), name: z.string() }).nullable(),
    team: teamRef,
    attributes: conversationAttributes,
    consent: conversationConsent,
    visitor_typing: z.boolean(),
    labels: z.array(label).describe("by name"),
    messages: z.array(inboxMessage).describe("every message, staff notes included, by sequence"),
    visitor: visitorContext,
    visitor_conversations: z.array(relatedConversation).max(20).describe("the visitor's other conversations on this site, newest first"),
    metrics: conversationMetrics,
    sla: conversationSla,
  }),
);

export const inboxSentMessage = named("InboxSentMessage", z.object({ message: inboxMessage, duplicate: z.boolean() }));

export const inboxTyping = named("InboxTyping", z.object({ conversation_id: z.string(), typing: z.boolean() }));

export const inboxAssignment = named(
  "InboxAssignment",
  z.object({ conversation_id: z.string(), assigned_member_id: z.string().nullable() }),
);

export const inboxTicket = named(
  "InboxTicket",
  ticket.omit({ inbox_id: true, attachments: true }).extend({
    site_name: z.string(),
    attachments: z.array(
      ticketAttachment
        .omit({ uploaded_at: true })
        .extend({ download_url: z.string().describe("relative: GET /api/v1/inbox/attachments/{id} with the session cookie") }),
    ),
  }),
);

export const inboxTicketPage = named(
  "InboxTicketPage",
  z.object({
    items: z.array(inboxTicket).describe("newest first, ties by id"),
    next_cursor: z.string().nullable().describe("`<created_at ms>_<id>`; null on the last page"),
  }),
);

/**
 * One ticket as its page reads it: its thread (staff replies and the filer's emailed replies),
 * oldest first; each staff reply with what became of its email (the outbox's state): `queued` (not
 * sent yet), `sent`, `failed` (SMTP refused; retried), `not_sent` (no SMTP_URL) or `suppressed`.
 */
export const inboxTicketDetail = named(
  "InboxTicketDetail",
  inboxTicket.extend({
    replies: z.array(
      ticketReply.pick({ id: true, author_name: true, body: true, created_at: true }).extend({
        author_type: z.enum(["staff", "filer"]).describe("`filer`: the filer's reply by email"),
        author_id: z.string().nullable().describe("the member's id; null for the filer"),
        email_status: z.enum(["queued", "sent", "failed", "not_sent", "suppressed"]).nullable().describe("null for the filer's replies"),
      }),
    ),
    events: z
      .array(
        z.object({
          id: z.string(),
          field: z.enum(["status", "assignee", "priority"]),
          from: z.string().nullable().describe("the value before; an assignee by name; null: none"),
          to: z.string().nullable().describe("the value after; an assignee by name; null: none (unassigned)"),
          actor_id: z.string().nullable(),
          actor_name: z.string().nullable().describe("null: the filer's emailed reply reopened the ticket"),
          created_at: isoTime,
        }),
      )
      .describe("staff only: who changed the status, assignee or priority, oldest first"),
  }),
);

export const teamMember = named(
  "TeamMember",
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    role: role.nullable().describe("null until the member has accepted an invite"),
    notify: z.boolean(),
    active: z.boolean().describe("has a sign-in and is not deactivated"),
    has_picture: z.boolean(),
    picture_tag: z.string().nullable(),
    invited: z.boolean().describe("an invite is waiting to be accepted"),
    availability,
    max_open: z.number().int().describe("round robin assigns no more open conversations than this"),
  }),
);

export const availabilityAnswer = named("AvailabilityAnswer", z.object({ availability }));

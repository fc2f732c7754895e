import { z } from "zod";
import { STAFF_ROLES } from "./members";
import { MAX_TEAM_FACES, WIDGET_LOCALES, WIDGET_POSITIONS } from "./sites";
import { weekHours } from "./service-hours";
import { ASSIGNMENT_MODES, availability } from "./routing";
import { ANSWER_MODES, helpCenterSetting } from "./answers";

// The wire shapes of what the API answers (the `result` of the envelope), for the API document.
// Requests are described by the very schemas the routes validate with (lib/<domain>/schemas.ts);
// answers are described here, and the contract test checks every answer of the integration suite
// against them, so a service that starts answering something else fails a test.

/** The named shapes: each becomes `#/components/schemas/<id>` in the document. */
export const wireSchemas = z.registry<{ id: string }>();
export const named = <Schema extends z.ZodType>(id: string, schema: Schema): Schema => {
  wireSchemas.add(schema, { id });
  return schema;
};

export const isoTime = z.iso.datetime({ offset: true }).describe("ISO 8601, UTC, milliseconds");
const id = z.string().max(100);

export const messageAttachment = named(
  "MessageAttachment",
  z.object({
    id: z.string(),
    name: z.string(),
    content_type: z.string(),
    bytes: z.int().min(0),
    url: z.string().describe("relative path of the download, for the reader's side: the visitor's (with its token) or the inbox's (signed-in staff)"),
  }),
);

export const messageSource = named(
  "MessageSource",
  z.object({ article_id: z.string(), title: z.string(), url: z.string() }),
);

export const message = named(
  "Message",
  z.object({
    id: z.string(),
    sequence: z.int().min(1),
    conversation_id: z.string(),
    client_id: z.string(),
    author_id: z.string(),
    author_type: z.enum(["visitor", "staff", "system"]),
    kind: z.enum(["message", "note"]).describe("visitors only ever see `message`"),
    body: z.string().describe("verbatim after trimming: render as text, never as HTML"),
    created_at: isoTime,
    author_name: z.string().nullable(),
    author_avatar: z.string().nullable().describe("relative path of the author's picture, or null"),
    event: z
      .enum(["conversation_closed", "conversation_reopened", "handoff_requested"])
      .optional()
      .describe("system messages only (extension): what happened; act on this, never on `body`"),
    attachments: z.array(messageAttachment).describe("the files sent with the message, in the order sent; always present, [] when none"),
    sources: z.array(messageSource).describe("extension (round 4): the articles an answer was drawn from; always present, [] when none; a bot's answer has at least one"),
  }),
);

export const staffMessage = named(
  "StaffMessage",
  message.extend({
    sequence: z.int().min(0).describe("a public message's own number; a note's is that of the public message it follows (0: none yet)"),
    note_number: z.int().min(0).describe("0 for a public message; 1, 2… for the notes after the same public message"),
    author_bot: z.boolean().describe("written by a member with `bot` set (staff sides only)"),
    event: z
      .enum(["conversation_closed", "conversation_reopened", "handoff_requested", "assigned", "labelled", "snoozed", "unsnoozed", "reassigned", "rated", "team_changed", "attributes_changed", "sla_breached"])
      .optional()
      .describe("system messages only: the public events, and the staff-only timeline's (kind `note`, never shown to the visitor)"),
    details: z.record(z.string(), z.unknown()).optional().describe("a timeline event's facts: `actorMemberId`, and e.g. `until`, `assigneeName`, `added`/`removed`, `score`"),
    mentions: z.array(z.string()).optional().describe("a note's @mentioned member ids"),
  }),
);

export const staffSentMessage = named("StaffSentMessage", z.object({ message: staffMessage, duplicate: z.boolean() }));

export const sentMessage = named(
  "SentMessage",
  z.object({ message, duplicate: z.boolean().describe("true when this client_id was already stored with the same body") }),
);

export const presenceEntry = named(
  "PresenceEntry",
  z.object({
    conversation_id: z.string(),
    actor_id: z.string(),
    author_type: z.enum(["visitor", "staff"]),
    typing: z.boolean(),
    expires_at: isoTime,
    author_name: z.string().nullable().describe("an extension: a staff member's name (null for the visitor)"),
  }),
);

export const messagePage = named(
  "MessagePage",
  z.object({
    items: z.array(message),
    next_cursor: z.int().min(0),
    has_more: z.boolean(),
    presence: z
      .array(presenceEntry)
      .optional()
      .describe("an extension, only when the query has `presence`: others' live typing entries, as GET /visitor/presence answers them"),
  }),
);

export const startedConversation = named(
  "StartedConversation",
  z.object({
    conversation_id: z.string(),
    visitor_token: z.string().regex(/^vt_[A-Za-z0-9_-]{43}$/),
    expires_in_seconds: z.literal(86400),
    offline: z.boolean(),
  }),
);

export const renewedToken = named(
  "RenewedToken",
  z.object({ visitor_token: z.string().regex(/^vt_[A-Za-z0-9_-]{43}$/), expires_at: isoTime }),
);

export const staffPresence = named(
  "StaffPresence",
  z.object({ conversation_id: z.string(), actor_id: z.string(), typing: z.boolean() }),
);

const pictureType = z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export const memberPicture = named(
  "MemberPicture",
  z.object({ content_type: pictureType, bytes: z.base64(), tag: z.string().regex(/^[0-9a-f]{1,64}$/) }),
);

export const ticketReceipt = named(
  "TicketReceipt",
  z.object({
    number: z.int().min(1),
    subject: z.string(),
    uploads: z.array(
      z.object({
        attachment_id: z.string().max(64),
        upload_url: z.url().max(2000).describe("absolute; one PUT of exactly the described bytes and type, 15 minutes"),
        name: z.string(),
        upload_headers: z
          .record(z.string(), z.string())
          .optional()
          .describe("headers the PUT must carry (S3: If-None-Match: *, a one-use conditional write)"),
      }),
    ),
  }),
);

export const chatUpload = named(
  "ChatUpload",
  z.object({
    attachment_id: z.string().max(64).describe("send it in a message's `attachments` once the PUT succeeded"),
    upload_url: z.url().max(2000).describe("absolute; one PUT of exactly the described bytes and type, 15 minutes"),
    upload_headers: z
      .record(z.string(), z.string())
      .optional()
      .describe("headers the PUT must carry (S3: If-None-Match: *, a one-use conditional write)"),
  }),
);

export const uploadedFile = named(
  "UploadedFile",
  z.object({ attachment_id: z.string(), bytes: z.int().min(0), content_type: z.string() }),
);

export const site = named(
  "Site",
  z.object({
    id,
    name: z.string(),
    origins: z.array(z.string()),
    offline: z.boolean(),
    inbox_id: z.string(),
    daily_allowance: z.int().min(0),
    title: z.string().nullable().describe("the widget's title; null: the widget's default"),
    greeting: z.string().nullable(),
    brand_color: z.string().regex(/^#[0-9a-fA-F]{6}$/).nullable(),
    locale: z.enum(WIDGET_LOCALES).nullable().describe("null: the visitor's browser language"),
    position: z.enum(WIDGET_POSITIONS).describe("extension: the side the launcher and the panel sit on (default right)"),
    launcher_label: z.string().max(40).nullable().describe("extension: words on the launcher beside its icon; null: the icon alone"),
    team_member_ids: z
      .array(z.string())
      .max(MAX_TEAM_FACES)
      .describe("extension: the members whose pictures the widget shows, in order; []: the members with shown_in_widget on"),
    identity_required: z.boolean(),
    has_identity_secret: z.boolean().describe("the secret itself is shown only by POST …/identity-secret"),
    track_before_interaction: z.boolean().describe("the embed stores its visitor id on page load, before any interaction (default false)"),
    timezone: z.string().describe("IANA time zone of hours and holidays"),
    hours: weekHours.nullable().describe("null: always open"),
    holidays: z.array(z.string()).describe("dates (YYYY-MM-DD) in the site's zone on which no period starts"),
    away_message: z.string().nullable().describe("shown by the widget outside hours; null: the widget's default"),
    assignment: z.enum(ASSIGNMENT_MODES).describe("manual: staff assign; round_robin: a new conversation goes to an online member (docs/routing.md)"),
    reassign_after_minutes: z.number().int().nullable().describe("an assigned conversation waiting this long for a human reply moves on; null: off"),
    default_team_id: z.string().nullable().describe("the team new conversations and tickets land in (docs/teams.md); null: none"),
    departments: z.array(z.object({ team_id: z.string(), label: z.string() })).max(10).describe("the teams the widget asks a visitor to choose from; [] asks nothing"),
    prechat: z
      .object({
        fields: z.array(z.object({ key: z.string(), required: z.boolean() })).max(10),
        consent: z.object({ text: z.string().max(500), required: z.boolean() }).nullable(),
      })
      .nullable()
      .describe("round 4: the pre-chat form (name, email or attribute keys, and an optional consent checkbox with its text); null: none"),
    retention_days: z.int().min(1).max(3650).nullable().describe("closed conversations and tickets older than this many days are erased daily; null: kept"),
    help_center: helpCenterSetting.describe("extension (round 4): the public help center"),
    answers: z.enum(ANSWER_MODES).describe("extension (round 4): off (default), suggest (the widget suggests articles) or bot (and the bot answers)"),
  }),
);

export const member = named(
  "Member",
  z.object({
    id,
    name: z.string(),
    avatar: z.object({ content_type: pictureType, tag: z.string() }).nullable(),
    email: z.string().nullable(),
    notify: z.boolean(),
    role: z.enum(STAFF_ROLES).nullable().describe("`owner` or `agent` once an invite was accepted, else null"),
    deactivated: z.boolean(),
    shown_in_widget: z.boolean().describe("among the team faces of the widget's empty state"),
    bot: z.boolean().describe("an automatic agent (the demo's): the inbox marks its messages"),
    availability,
    max_open: z.number().int().describe("round robin assigns no more open conversations than this"),
  }),
);

export const conversation = named(
  "Conversation",
  z.object({
    id: z.string(),
    site_id: id,
    status: z.enum(["open", "snoozed", "closed"]).describe("staff sides; a visitor never sees `snoozed` (it is open to them)"),
    snoozed_until: isoTime.nullable().describe("when a snoozed conversation opens again by itself; null unless snoozed"),
    origin: z.string(),
    visitor_id: z.string(),
    visitor_name: z.string().nullable(),
    visitor_email: z.string().nullable(),
    offline: z.boolean(),
    last_sequence: z.int().min(0),
    visitor_seen_sequence: z.int().min(0).describe("the highest sequence the visitor's list endpoint has sent"),
    created_at: isoTime,
    closed_at: isoTime.nullable(),
    user_id: z.string().nullable().describe("the signed-in user of the site, from identity verification"),
    identity_verified: z.boolean(),
  }),
);

const visitedPage = z.object({ url: z.string(), title: z.string().nullable(), at: isoTime });

export const visitorContext = named(
  "VisitorContext",
  z.object({
    display_name: z.string().describe("the given name, else a stable generated one (the same for the same visitor_id)"),
    avatar_color: z.string().describe("#rrggbb, stable per visitor; holds white text"),
    named: z.boolean().describe("false when display_name is generated"),
    email: z.string().nullable(),
    user_id: z.string().nullable(),
    identity_verified: z.boolean(),
    visitor_id: z.string().nullable().describe("the browser's own id (the page views' id), when the widget sent one"),
    current_page: visitedPage.nullable().describe("the newest page of this visitor: a page view, or the page the conversation started on"),
    pages: z.array(visitedPage.extend({ referrer: z.string().nullable() })).max(20).describe("the last 20 page views of this visitor_id on this site, newest first"),
    browser: z.string().nullable(),
    os: z.string().nullable(),
    device: z.string().nullable().describe("desktop, mobile, tablet, tv or bot"),
    timezone: z.string().nullable().describe("IANA, as the browser reported it"),
    locale: z.string().nullable(),
    first_seen_at: isoTime,
    conversation_count: z.int().min(1).describe("this visitor's conversations on this site (same visitor_id or verified user_id), this one included"),
  }),
);

export const relatedConversation = named(
  "RelatedConversation",
  z.object({ id: z.string(), status: z.enum(["open", "snoozed", "closed"]), created_at: isoTime, last_activity_at: isoTime }),
);

/** A staff read's first response and resolution per cycle (lib/reports/metrics.ts, docs/reports.md). */
export const conversationMetrics = named(
  "ConversationMetrics",
  z.object({
    cycles: z.array(
      z.object({
        started_at: isoTime.describe("the cycle's first visitor message, or its reopen"),
        first_response_s: z.int().min(0).nullable().describe("null until a person replies"),
        resolution_s: z.int().min(0).nullable().describe("null until the cycle is closed"),
      }),
    ),
  }),
);

/** What a conversation or ticket carries for staff: its team, or null (every agent sees it; docs/teams.md). */
export const teamRef = z.object({ id: z.string(), name: z.string() }).nullable().describe("the team that holds it; null: none (every agent sees it)");

/** The operator API's list item: the conversation and its team. */
export const conversationListItem = named("ConversationListItem", conversation.extend({ team: teamRef }));

export const conversationWithMessages = named(
  "ConversationWithMessages",
  conversation.extend({
    team: teamRef,
    messages: z.array(staffMessage).describe("every message, staff notes included, ordered by (sequence, note_number)"),
    visitor: visitorContext,
    visitor_conversations: z.array(relatedConversation).max(20).describe("an extension: the visitor's other conversations on this site, newest first"),
    metrics: conversationMetrics,
  }),
);

export const ticketAttachment = z.object({
  id: z.string(),
  name: z.string(),
  content_type: z.string(),
  bytes: z.int().min(0),
  uploaded: z.boolean(),
  uploaded_at: isoTime.nullable(),
});

export const ticket = named(
  "Ticket",
  z.object({
    id: z.string(),
    number: z.int().min(1),
    site_id: id,
    inbox_id: z.string(),
    origin: z.string(),
    name: z.string().nullable(),
    email: z.string(),
    subject: z.string(),
    body: z.string(),
    priority: z.enum(["low", "normal", "high", "urgent"]),
    status: z.enum(["open", "pending", "solved"]).describe("`pending`: waiting for the filer; the filer's emailed reply sets `open` again"),
    assignee: z.object({ id: z.string(), name: z.string() }).nullable(),
    team: teamRef,
    created_at: isoTime,
    updated_at: isoTime.describe("the last change of status, assignee or priority, or the last reply"),
    solved_at: isoTime.nullable(),
    attachments: z.array(ticketAttachment),
  }),
);

export const pageView = named(
  "PageView",
  z.object({
    id: z.string(),
    site_id: id,
    origin: z.string(),
    visitor_id: z.string().nullable(),
    page_url: z.string(),
    page_title: z.string().nullable(),
    referrer: z.string().nullable(),
    created_at: isoTime,
  }),
);

export const health = named("Health", z.object({ status: z.literal("ok") }));

export const readiness = named("Readiness", z.object({ database: z.literal("ok"), redis: z.enum(["ok", "not_configured"]) }));

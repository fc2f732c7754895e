import { z } from "zod";
import { MAX_TEAM_FACES, WIDGET_LOCALES, WIDGET_POSITIONS } from "./sites";
import { isoTime, named } from "./wire";

// Widget 2's answers (lib/widget-config, lib/identity): the site config the widget reads before
// anyone has written, and the identity secret shown once.

export const widgetConfig = named(
  "WidgetConfig",
  z.object({
    title: z.string().nullable().describe("null: the widget's own title"),
    greeting: z.string().nullable().describe("null: the widget's own greeting"),
    brand_color: z.string().regex(/^#[0-9a-f]{6}$/).nullable().describe("#rrggbb, lower-case; null: the widget's blue"),
    track_before_interaction: z.boolean().describe("the embed may store its visitor id before the visitor interacts"),
    offline: z.boolean().describe("true when switched offline or outside service hours: a start needs an email"),
    open: z.boolean().describe("inside the site's service hours now (always true without hours)"),
    next_open_at: z.iso.datetime().nullable().describe("when the hours next open; null while open or when no period ever opens"),
    away_message: z.string().nullable().describe("shown outside hours; null: the widget's default"),
    locale: z.enum(WIDGET_LOCALES).nullable().describe("null: the visitor's browser language"),
    position: z.enum(WIDGET_POSITIONS).describe("extension: the side of the page the launcher and the panel sit on"),
    launcher_label: z.string().max(40).nullable().describe("extension: words shown on the launcher beside its icon; null: the icon alone"),
    team: z
      .array(
        z.object({
          name: z.string(),
          avatar: z.string().startsWith("data:image/").nullable().describe("the picture as a data URL when at most 16 KiB, else null (initials)"),
        }),
      )
      .max(MAX_TEAM_FACES)
      .describe("the site's team_member_ids in that order (active members only); when none are chosen, members with shown_in_widget on, oldest first"),
  }),
);

export const identitySecret = named(
  "IdentitySecret",
  z.object({
    identity_secret: z
      .string()
      .regex(/^ids_[A-Za-z0-9_-]{43}$/)
      .describe("shown only in this answer; user_hash = hex(HMAC-SHA256(key = identity_secret, message = user_id))"),
  }),
);

// Returning visitors (round 3): a verified user's conversations, each with a fresh token.
/** The newest public message of a conversation, as a returning visitor's list shows it. */
export const historyLastMessage = named(
  "HistoryLastMessage",
  z.object({
    body: z.string().max(200).describe("the first 200 characters of the body (render as text); empty for files alone"),
    author_type: z.enum(["visitor", "staff", "system"]),
    event: z.enum(["conversation_closed", "conversation_reopened"]).nullable().describe("system messages: what happened"),
    has_attachments: z.boolean(),
    created_at: isoTime,
  }),
);

export const historyConversation = named(
  "HistoryConversation",
  z.object({
    conversation_id: z.string(),
    status: z.enum(["open", "closed"]).describe("as the visitor sees it: a snoozed conversation is `open`"),
    last_message: historyLastMessage.nullable().describe("public messages only, never notes; null before any message"),
    updated_at: isoTime.describe("the last public message's time, or the start's"),
    visitor_token: z.string().regex(/^vt_[A-Za-z0-9_-]{43}$/),
    expires_in_seconds: z.literal(86400),
  }),
);

export const conversationHistory = named(
  "ConversationHistory",
  z.object({ conversations: z.array(historyConversation).max(20).describe("newest first, at most 20") }),
);

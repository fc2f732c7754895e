import { z } from "zod";
import { ATTRIBUTE_TYPES } from "./prechat";
import { MAX_TEAM_FACES, WIDGET_LOCALES, WIDGET_POSITIONS } from "./sites";
import { ANSWER_MODES } from "./answers";
import { isoTime, named } from "./wire";
import type { WidgetConfigShape } from "./widget-config-shape";

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
    team_available: z
      .boolean()
      .describe("at least one person (not a bot) who may answer this site is online now; false inside hours: the widget says nobody is there and asks for an email"),
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
    answers: z.enum(ANSWER_MODES).describe("round 4: off, suggest (articles as the visitor types) or bot (also the bot answers; the widget shows \"Talk to a person\")"),
    help_center: z
      .object({
        enabled: z.boolean(),
        url: z.url().nullable().describe("the public help center's home; null while it is disabled"),
      })
      .describe("round 4: the site's public help center (its article routes 404 while disabled)"),
    departments: z
      .array(z.object({ team_id: z.string(), label: z.string().max(40) }))
      .max(10)
      .describe("round 4: the teams a visitor chooses from before the first message (the start's team_id); [] asks nothing"),
    prechat: z
      .object({
        fields: z
          .array(
            z.object({
              key: z.string().max(40),
              label: z.string().max(60).nullable().describe("an attribute's label; null for name and email (the widget's own words)"),
              type: z.enum(["name", "email", ...ATTRIBUTE_TYPES]),
              options: z.array(z.string()).describe("a list's choices; [] otherwise"),
              required: z.boolean(),
            }),
          )
          .max(10),
        consent: z.object({ text: z.string().max(500), required: z.boolean() }).nullable().describe("the consent checkbox and its exact text; null: none"),
      })
      .nullable()
      .describe("round 4: the pre-chat form shown before the first message (the start's fields and consent); null: none"),
  }),
);

/** The schema answers what every reader of the config expects (widget-config-shape.ts): same fields, fitting types. */
type ConfigFits = z.infer<typeof widgetConfig> extends WidgetConfigShape ? (keyof WidgetConfigShape extends keyof z.infer<typeof widgetConfig> ? true : false) : false;
export const configFitsShape: ConfigFits = true;

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
    last_said: historyLastMessage
      .nullable()
      .describe("the newest public message a person or the bot wrote (never a closed or reopened line): the list's text for the entry; null before any"),
    updated_at: isoTime.describe("the last public message's time, or the start's"),
    visitor_token: z.string().regex(/^vt_[A-Za-z0-9_-]{43}$/),
    expires_in_seconds: z.literal(86400),
  }),
);

export const conversationHistory = named(
  "ConversationHistory",
  z.object({ conversations: z.array(historyConversation).max(20).describe("newest first, at most 20") }),
);

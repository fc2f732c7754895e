import { z } from "zod";
import { WIDGET_LOCALES } from "./sites";
import { named } from "./wire";

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
    team: z
      .array(
        z.object({
          name: z.string(),
          avatar: z.string().startsWith("data:image/").nullable().describe("the picture as a data URL when at most 16 KiB, else null (initials)"),
        }),
      )
      .max(5)
      .describe("members with shown_in_widget on, oldest first"),
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

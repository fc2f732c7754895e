import { z } from "zod";
import { canonicalOrigin } from "../core/origins/origin";
import { clientId, displayName, singleLineText, singleLineValue } from "../core/validation/strings";
import { serviceHoursFields } from "./service-hours";
import { routingFields } from "./routing";
import { answerSiteColumns, answerSiteFields } from "./answers";
import { prechatSetting } from "./prechat";

const siteId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "must be 1-100 letters, digits, '.', '_' or '-'");

/** Origins are stored canonical; an entry that is not an http(s) origin is refused, not guessed at. */
const origins = z
  .array(singleLineValue(300))
  .max(50)
  .transform((entries, ctx) => {
    const canonical = entries.map((entry, index) => {
      const origin = canonicalOrigin(entry);
      if (!origin) ctx.addIssue({ code: "custom", path: [index], message: "must be an http(s) origin such as https://shop.example" });
      return origin ?? "";
    });
    return [...new Set(canonical)];
  });

const dailyAllowance = z.number().int().min(0).max(1_000_000);
/** Days closed conversations and tickets are kept (docs/security.md); null keeps them. */
const retentionDays = z.int().min(1).max(3650).nullable();

/** Where the launcher and the panel sit (docs/widget.md, "Design"). */
export const WIDGET_POSITIONS = ["right", "left"] as const;
/** At most this many members' pictures in the widget's header. */
export const MAX_TEAM_FACES = 5;

/** The widget's languages (widget/src/locales); null follows the visitor's browser. */
export const WIDGET_LOCALES = ["en", "de", "fr", "es", "ar"] as const;

// The widget's look and words (GET /widget/{siteID}/config). null resets to the widget's default.
const widgetFields = {
  title: displayName(60).nullable().optional(),
  greeting: singleLineText(200).nullable().optional(),
  brand_color: z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a colour as #rrggbb").transform((c) => c.toLowerCase()).nullable().optional(),
  locale: z.enum(WIDGET_LOCALES).nullable().optional(),
  position: z.enum(WIDGET_POSITIONS).optional(),
  // null: the launcher shows its icon alone
  launcher_label: displayName(40).nullable().optional(),
  // In order; [] shows the members with shown_in_widget on. Each must be an active member (checked by the service).
  team_member_ids: z
    .array(clientId(100))
    .max(MAX_TEAM_FACES)
    .refine((ids) => new Set(ids).size === ids.length, "must not repeat a member")
    .optional(),
  identity_required: z.boolean().optional(),
  // Privacy first (decisions.md, round 3): on, the embed stores its visitor id on page load; only where visitors consented.
  track_before_interaction: z.boolean().optional(),
  ...serviceHoursFields,
  ...routingFields,
  ...answerSiteFields,
  // The team a new conversation or ticket of this site lands in (docs/teams.md); null: none. Checked by the service.
  default_team_id: clientId(100).nullable().optional(),
  // The teams the widget asks visitors to choose from (docs/teams.md); each a team (checked by the service).
  departments: z
    .array(z.strictObject({ team_id: clientId(100), label: displayName(40) }))
    .max(10)
    .refine((list) => new Set(list.map((entry) => entry.team_id)).size === list.length, "must not repeat a team")
    .optional(),
  // The pre-chat form (docs/attributes.md); null: none. Each attribute key must be defined (checked by the service).
  prechat: prechatSetting.optional(),
};
const toWidgetColumns = <
  T extends {
    brand_color?: string | null;
    launcher_label?: string | null;
    team_member_ids?: string[];
    identity_required?: boolean;
    track_before_interaction?: boolean;
    away_message?: string | null;
    reassign_after_minutes?: number | null;
    default_team_id?: string | null;
    help_center?: { enabled?: boolean; title?: string };
    answers?: "off" | "suggest" | "bot";
  },
>({
  brand_color,
  launcher_label,
  team_member_ids,
  identity_required,
  track_before_interaction,
  away_message,
  reassign_after_minutes,
  default_team_id,
  help_center,
  answers,
  ...rest
}: T) => ({
  ...rest,
  ...answerSiteColumns({ help_center, answers }),
  brandColor: brand_color,
  launcherLabel: launcher_label,
  teamMemberIds: team_member_ids,
  identityRequired: identity_required,
  trackBeforeInteraction: track_before_interaction,
  awayMessage: away_message,
  reassignAfterMinutes: reassign_after_minutes,
  defaultTeamId: default_team_id,
});

export const createSiteBody = z
  .strictObject({
    id: siteId,
    name: displayName(120).optional(),
    origins,
    daily_allowance: dailyAllowance.optional(),
    offline: z.boolean().optional(),
    retention_days: retentionDays.optional(),
    ...widgetFields,
  })
  .transform(({ daily_allowance, retention_days, ...rest }) => ({ ...toWidgetColumns(rest), dailyAllowance: daily_allowance, retentionDays: retention_days }));

export const updateSiteBody = z
  .strictObject({
    name: displayName(120).optional(),
    origins: origins.optional(),
    daily_allowance: dailyAllowance.optional(),
    offline: z.boolean().optional(),
    retention_days: retentionDays.optional(),
    ...widgetFields,
  })
  .transform(({ daily_allowance, retention_days, ...rest }) => ({ ...toWidgetColumns(rest), dailyAllowance: daily_allowance, retentionDays: retention_days }));

export type CreateSiteInput = z.output<typeof createSiteBody>;
export type UpdateSiteInput = z.output<typeof updateSiteBody>;

/** `?site=`: the operator API's lists of one site's conversations, tickets and page views. */
export const siteQuery = z.strictObject({ site: clientId(100) });

// The site config the widget reads (GET /api/v1/chat/widget/{siteID}/config) as a plain type with
// no imports, so the three readers share one shape: the service's schema (widget-wire.ts checks
// that what it answers fits this), the widget (widget/src/shared/types.ts, which compiles without
// zod or lib/core) and the designer's preview (app/inbox). Field docs live on the schema.

export interface WidgetTeamFace {
  name: string;
  avatar: string | null;
}

/** One field of the pre-chat form: name and email have no label (the widget words them); attributes carry theirs. */
export interface WidgetPrechatField {
  key: string;
  label: string | null;
  type: "name" | "email" | "text" | "number" | "date" | "boolean" | "list" | "link";
  options: string[];
  required: boolean;
}

export interface WidgetPrechat {
  fields: WidgetPrechatField[];
  consent: { text: string; required: boolean } | null;
}

export interface WidgetDepartment {
  team_id: string;
  label: string;
}

export interface WidgetConfigShape {
  title: string | null;
  greeting: string | null;
  brand_color: string | null;
  track_before_interaction: boolean;
  offline: boolean;
  open: boolean;
  next_open_at: string | null;
  team_available: boolean;
  away_message: string | null;
  locale: string | null;
  position: "right" | "left";
  launcher_label: string | null;
  team: WidgetTeamFace[];
  answers: "off" | "suggest" | "bot";
  help_center: { enabled: boolean; url: string | null };
  departments: WidgetDepartment[];
  prechat: WidgetPrechat | null;
}

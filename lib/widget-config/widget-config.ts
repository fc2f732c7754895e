import type { z } from "zod";
import { db } from "../db/client";
import type { widgetConfig } from "../contracts/widget-wire";
import type { SiteRecord } from "../sites/find-site";

// What the widget shows before anyone has written: GET /widget/{siteID}/config (decisions.md,
// "The widget's next version"). Team pictures travel inline as data URLs, so only small ones.

/** Pictures above this size are left out of the config (the face shows initials instead). */
export const MAX_INLINE_PICTURE_BYTES = 16 * 1024;
const MAX_TEAM = 5;

export type WidgetConfig = z.infer<typeof widgetConfig>;

export async function readWidgetConfig(site: SiteRecord): Promise<WidgetConfig> {
  const prisma = await db();
  const [settings, team] = await Promise.all([
    prisma.site.findUniqueOrThrow({ where: { id: site.id }, select: { title: true, greeting: true, brandColor: true, locale: true, trackBeforeInteraction: true } }),
    prisma.member.findMany({
      where: { shownInWidget: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: MAX_TEAM,
      select: { name: true, avatarBytes: true, avatarContentType: true },
    }),
  ]);
  return {
    title: settings.title,
    greeting: settings.greeting,
    brand_color: settings.brandColor,
    offline: site.offline,
    track_before_interaction: settings.trackBeforeInteraction,
    locale: settings.locale as WidgetConfig["locale"], // stored only from the sites' WIDGET_LOCALES
    team: team.map((member) => ({
      name: member.name,
      avatar:
        member.avatarBytes && member.avatarContentType && member.avatarBytes.length <= MAX_INLINE_PICTURE_BYTES
          ? `data:${member.avatarContentType};base64,${Buffer.from(member.avatarBytes).toString("base64")}`
          : null,
    })),
  };
}

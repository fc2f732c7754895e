import type { z } from "zod";
import { db } from "../db/client";
import type { widgetConfig } from "../contracts/widget-wire";
import type { WidgetSite } from "../sites/find-site";
import { siteAvailability } from "../sites/site-hours";

// What the widget shows before anyone has written: GET /widget/{siteID}/config (decisions.md,
// "The widget's next version"). Team pictures travel inline as data URLs, so only small ones.

/** Pictures above this size are left out of the config (the face shows initials instead). */
export const MAX_INLINE_PICTURE_BYTES = 16 * 1024;
const MAX_TEAM = 5;

/** How long a browser may keep the config (decisions.md), and never past the next opening or closing. */
const MAX_AGE_SECONDS = 60;

export type WidgetConfig = z.infer<typeof widgetConfig>;

/** The config and how many seconds it stays true (the answer's max-age). */
export async function readWidgetConfig(site: WidgetSite): Promise<{ config: WidgetConfig; maxAgeSeconds: number }> {
  const prisma = await db();
  const now = new Date();
  const availability = siteAvailability(site, now);
  const [settings, team] = await Promise.all([
    prisma.site.findUniqueOrThrow({
      where: { id: site.id },
      select: { title: true, greeting: true, brandColor: true, locale: true, awayMessage: true, trackBeforeInteraction: true },
    }),
    prisma.member.findMany({
      where: { shownInWidget: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: MAX_TEAM,
      select: { name: true, avatarBytes: true, avatarContentType: true },
    }),
  ]);
  const config: WidgetConfig = {
    title: settings.title,
    greeting: settings.greeting,
    brand_color: settings.brandColor,
    offline: availability.offline,
    track_before_interaction: settings.trackBeforeInteraction,
    open: availability.open,
    next_open_at: availability.nextOpenAt?.toISOString() ?? null,
    away_message: settings.awayMessage,
    locale: settings.locale as WidgetConfig["locale"], // stored only from the sites' WIDGET_LOCALES
    team: team.map((member) => ({
      name: member.name,
      avatar:
        member.avatarBytes && member.avatarContentType && member.avatarBytes.length <= MAX_INLINE_PICTURE_BYTES
          ? `data:${member.avatarContentType};base64,${Buffer.from(member.avatarBytes).toString("base64")}`
          : null,
    })),
  };
  const untilChange = availability.changesAt ? Math.ceil((availability.changesAt.getTime() - now.getTime()) / 1000) : Infinity;
  return { config, maxAgeSeconds: Math.max(0, Math.min(MAX_AGE_SECONDS, untilChange)) };
}

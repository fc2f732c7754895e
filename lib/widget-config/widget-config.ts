import type { z } from "zod";
import { db } from "../db/client";
import type { widgetConfig } from "../contracts/widget-wire";
import { siteDesignColumns } from "../sites/design-columns";
import type { WidgetSite } from "../sites/find-site";
import { siteAvailability } from "../sites/site-hours";
import { anyoneOnline } from "./team-available";
import { helpCenterUrl } from "../articles/urls";
import { prechatForWidget } from "../attributes/prechat";

// What the widget shows before anyone has written: GET /widget/{siteID}/config (decisions.md,
// "The widget's next version"). Team pictures travel inline as data URLs, so only small ones.

/** Pictures above this size are left out of the config (the face shows initials instead). */
export const MAX_INLINE_PICTURE_BYTES = 16 * 1024;
const MAX_TEAM = 5;

/** How long a browser may keep the config (decisions.md), and never past the next opening or closing. */
const MAX_AGE_SECONDS = 60;

export type WidgetConfig = z.infer<typeof widgetConfig>;

const faceView = { id: true, name: true, avatarBytes: true, avatarContentType: true } as const;

/** The chosen members in the chosen order (deactivated ones left out), or else those shown in the widget. */
async function teamFaces(chosen: string[]) {
  const prisma = await db();
  if (chosen.length === 0) {
    return prisma.member.findMany({ where: { shownInWidget: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: MAX_TEAM, select: faceView });
  }
  const found = await prisma.member.findMany({ where: { id: { in: chosen }, deactivatedAt: null }, select: faceView });
  return chosen.flatMap((id) => found.filter((member) => member.id === id));
}

/** A member's picture as the config carries it: a data URL when small enough, else null (initials). */
export function inlinePicture(member: { avatarBytes: Uint8Array | null; avatarContentType: string | null }): string | null {
  return member.avatarBytes && member.avatarContentType && member.avatarBytes.length <= MAX_INLINE_PICTURE_BYTES
    ? `data:${member.avatarContentType};base64,${Buffer.from(member.avatarBytes).toString("base64")}`
    : null;
}

/** Everyone who may be a face in the header, for the Settings designer (active members, oldest first). */
export async function listFaceCandidates() {
  const members = await (await db()).member.findMany({
    where: { deactivatedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { ...faceView, shownInWidget: true },
  });
  return members.map((member) => ({ id: member.id, name: member.name, avatar: inlinePicture(member), shown_in_widget: member.shownInWidget }));
}

/** The config and how many seconds it stays true (the answer's max-age). */
export async function readWidgetConfig(site: WidgetSite): Promise<{ config: WidgetConfig; maxAgeSeconds: number }> {
  const prisma = await db();
  const now = new Date();
  const availability = siteAvailability(site, now);
  const settings = await prisma.site.findUniqueOrThrow({
    where: { id: site.id },
    select: { ...siteDesignColumns, answers: true, helpCenterEnabled: true },
  });
  const [team, teamAvailable, prechat] = await Promise.all([teamFaces(settings.teamMemberIds), anyoneOnline(now), prechatForWidget(site.prechat)]);
  const config: WidgetConfig = {
    title: settings.title,
    greeting: settings.greeting,
    brand_color: settings.brandColor,
    offline: availability.offline,
    track_before_interaction: settings.trackBeforeInteraction,
    open: availability.open,
    next_open_at: availability.nextOpenAt?.toISOString() ?? null,
    team_available: teamAvailable,
    away_message: settings.awayMessage,
    locale: settings.locale as WidgetConfig["locale"], // stored only from the sites' WIDGET_LOCALES
    position: settings.position as WidgetConfig["position"], // stored only from the sites' WIDGET_POSITIONS
    launcher_label: settings.launcherLabel,
    team: team.map((member) => ({ name: member.name, avatar: inlinePicture(member) })),
    answers: settings.answers as WidgetConfig["answers"], // stored only from ANSWER_MODES (a CHECK)
    help_center: { enabled: settings.helpCenterEnabled, url: settings.helpCenterEnabled ? helpCenterUrl(site.id) : null },
    departments: (site.departments as WidgetConfig["departments"]).map(({ team_id, label }) => ({ team_id, label })), // stored only through the sites' contract
    prechat,
  };
  const untilChange = availability.changesAt ? Math.ceil((availability.changesAt.getTime() - now.getTime()) / 1000) : Infinity;
  return { config, maxAgeSeconds: Math.max(0, Math.min(MAX_AGE_SECONDS, untilChange)) };
}

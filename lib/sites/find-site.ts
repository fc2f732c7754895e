import { db, queryPrepared } from "../db/client";
import type { Site } from "../generated/prisma/client";
import { FIND_WIDGET_SITE } from "./statements";
import { AppError } from "../core/errors";
import { isCanonicalOrigin } from "../core/origins/origin";
import type { SiteHours } from "./site-hours";

export type SiteRecord = Pick<Site, "id" | "name" | "inboxId" | "origins" | "offline">;

/** A site as a visitor's send sees it: also its answers mode (whether the bot may follow the send). */
export type VisitorSite = SiteRecord & Pick<Site, "answers">;

/**
 * A site as the widget routes see it: also whether a start must carry a verified identity, its
 * hours, how starts are assigned, and whether its help center is on (the article routes).
 */
export type WidgetSite = SiteRecord & Pick<Site, "identityRequired" | "assignment" | "answers" | "defaultTeamId" | "departments" | "prechat" | "helpCenterEnabled"> & SiteHours;

export async function findSite(id: string): Promise<WidgetSite | null> {
  const [row] = await queryPrepared<WidgetSite>(FIND_WIDGET_SITE, [id]);
  return row ?? null;
}

export const originNotAllowed = () => new AppError("origin_not_allowed", "This website is not allowed to use this chat widget.");

export function siteAllowsOrigin(site: Pick<SiteRecord, "origins">, origin: string | null): origin is string {
  return isCanonicalOrigin(origin) && site.origins.includes(origin);
}

/** Whether any site lists this origin: decides if an early 401 may carry CORS headers. */
export async function isOriginOnAnyAllowlist(origin: string): Promise<boolean> {
  const found = await (await db()).site.findFirst({ where: { origins: { has: origin } }, select: { id: true } });
  return found !== null;
}

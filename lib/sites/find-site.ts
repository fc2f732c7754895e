import { db } from "../db";
import type { Site } from "../generated/prisma/client";
import { isCanonicalOrigin } from "../origins/origin";

export type SiteRecord = Pick<Site, "id" | "name" | "inboxId" | "origins" | "offline">;

const siteColumns = { id: true, name: true, inboxId: true, origins: true, offline: true } as const;

export async function findSite(id: string): Promise<SiteRecord | null> {
  return (await db()).site.findUnique({ where: { id }, select: siteColumns });
}

export function siteAllowsOrigin(site: Pick<SiteRecord, "origins">, origin: string | null): origin is string {
  return isCanonicalOrigin(origin) && site.origins.includes(origin);
}

/** Whether any site lists this origin: decides if an early 401 may carry CORS headers. */
export async function isOriginOnAnyAllowlist(origin: string): Promise<boolean> {
  const found = await (await db()).site.findFirst({ where: { origins: { has: origin } }, select: { id: true } });
  return found !== null;
}

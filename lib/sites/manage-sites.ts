import { randomUUID } from "node:crypto";
import { db } from "../db";
import { isUniqueViolation } from "../db-errors";
import { AppError } from "../http/errors";
import type { CreateSiteInput, UpdateSiteInput } from "./schemas";

const siteView = {
  id: true,
  name: true,
  origins: true,
  offline: true,
  inboxId: true,
  inbox: { select: { dailyAllowance: true } },
} as const;

function toWireSite(site: { id: string; name: string; origins: string[]; offline: boolean; inboxId: string; inbox: { dailyAllowance: number } }) {
  return {
    id: site.id,
    name: site.name,
    origins: site.origins,
    offline: site.offline,
    inbox_id: site.inboxId,
    daily_allowance: site.inbox.dailyAllowance,
  };
}

/** Creates a site with an inbox of its own. */
export async function createSite(input: CreateSiteInput) {
  const name = input.name ?? input.id;
  try {
    const site = await (await db()).site.create({
      data: {
        id: input.id,
        name,
        origins: input.origins,
        offline: input.offline ?? false,
        inbox: { create: { id: randomUUID(), name, dailyAllowance: input.dailyAllowance } },
      },
      select: siteView,
    });
    return toWireSite(site);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("already_exists", "A site with this id already exists.");
    throw error;
  }
}

export async function updateSite(id: string, input: UpdateSiteInput) {
  const prisma = await db();
  const site = await prisma.$transaction(async (tx) => {
    const existing = await tx.site.findUnique({ where: { id }, select: { inboxId: true } });
    if (!existing) throw new AppError("site_not_found", "No site has this identifier.");
    if (input.dailyAllowance !== undefined) {
      await tx.inbox.update({ where: { id: existing.inboxId }, data: { dailyAllowance: input.dailyAllowance } });
    }
    return tx.site.update({
      where: { id },
      data: { name: input.name, origins: input.origins, offline: input.offline },
      select: siteView,
    });
  });
  return toWireSite(site);
}

/** Every site, by name. */
export async function listSites() {
  const sites = await (await db()).site.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], select: siteView });
  return sites.map(toWireSite);
}

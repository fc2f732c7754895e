import { db } from "../db/client";

/**
 * For each allowed origin of a site, when the widget last recorded a page view there (null: never),
 * so Settings can show where the embed works. One probe per origin on (site_id, origin, created_at).
 */
export async function lastSeenByOrigin(site: { id: string; origins: string[] }): Promise<{ origin: string; last_seen_at: string | null }[]> {
  const prisma = await db();
  return Promise.all(
    site.origins.map(async (origin) => {
      const view = await prisma.pageView.findFirst({ where: { siteId: site.id, origin }, orderBy: { createdAt: "desc" }, select: { createdAt: true } });
      return { origin, last_seen_at: view?.createdAt.toISOString() ?? null };
    }),
  );
}

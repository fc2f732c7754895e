import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { AppError } from "../core/errors";
import type { PageViewInput } from "../contracts/page-views";

// Page views are a log for the operator. The visitor_id is a label the page chose: it is stored
// as given and never looked up, so it reaches no conversation and grants nothing.

const PAGE = 500;

export async function recordPageView(siteId: string, origin: string, input: PageViewInput): Promise<null> {
  await (await db()).pageView.create({
    data: {
      id: randomUUID(),
      siteId,
      origin,
      visitorId: input.visitorId ?? null,
      pageUrl: input.pageUrl,
      pageTitle: input.pageTitle ?? null,
      referrer: input.referrer ?? null,
    },
  });
  return null;
}

export async function listPageViews(siteId: string) {
  const prisma = await db();
  const site = await prisma.site.findUnique({ where: { id: siteId }, select: { id: true } });
  if (!site) throw new AppError("site_not_found", "No site has this identifier.");
  const rows = await prisma.pageView.findMany({ where: { siteId }, orderBy: { createdAt: "desc" }, take: PAGE });
  return rows.map((row) => ({
    id: row.id,
    site_id: row.siteId,
    origin: row.origin,
    visitor_id: row.visitorId,
    page_url: row.pageUrl,
    page_title: row.pageTitle,
    referrer: row.referrer,
    created_at: row.createdAt.toISOString(),
  }));
}

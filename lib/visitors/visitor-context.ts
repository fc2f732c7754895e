import type { z } from "zod";
import { db } from "../db/client";
import { visibleConversationWhere, type Viewer } from "../teams/visibility";
import type { Conversation } from "../generated/prisma/client";
import type { visitorContext as visitorContextWire, relatedConversation } from "../contracts/wire";
import { visitorLook, visitorSeed } from "./generated-name";
import { summarizeUserAgent } from "./user-agent";

// Who the visitor of a conversation is, for staff (decisions.md, round 3 "Visitor identity and
// context"): their name or a generated one, the pages of the same browser on this site (page
// views carry the widget's visitor id), the browser they started from, and their other
// conversations: those of the same browser, or of the same verified user of the site.

export type VisitorContext = z.infer<typeof visitorContextWire>;
export type RelatedConversation = z.infer<typeof relatedConversation>;

export type VisitorRow = Pick<
  Conversation,
  | "id"
  | "siteId"
  | "visitorId"
  | "visitorName"
  | "visitorEmail"
  | "userId"
  | "identityVerified"
  | "browserVisitorId"
  | "timezone"
  | "locale"
  | "userAgent"
  | "startPageUrl"
  | "startPageTitle"
  | "createdAt"
>;

const TRAIL = 20;
const RELATED = 20;

/** The conversations of this visitor on this site: same browser, or the same verified user. */
const sameVisitor = (row: VisitorRow) => ({
  siteId: row.siteId,
  OR: [
    { id: row.id },
    ...(row.browserVisitorId ? [{ browserVisitorId: row.browserVisitorId }] : []),
    ...(row.identityVerified && row.userId ? [{ userId: row.userId, identityVerified: true }] : []),
  ],
});

/** `viewer`: a member, who is shown (and counted) only the conversations they may see (docs/teams.md); none: the operator, all. */
export async function readVisitorContext(row: VisitorRow, viewer?: Viewer): Promise<{ visitor: VisitorContext; conversations: RelatedConversation[] }> {
  const prisma = await db();
  const visible = viewer ? visibleConversationWhere(viewer) : {};
  const trailOf = row.browserVisitorId ? { siteId: row.siteId, visitorId: row.browserVisitorId } : null;
  const [pages, firstPage, related, counted] = await Promise.all([
    trailOf ? prisma.pageView.findMany({ where: trailOf, orderBy: { createdAt: "desc" }, take: TRAIL }) : [],
    trailOf ? prisma.pageView.findFirst({ where: trailOf, orderBy: { createdAt: "asc" }, select: { createdAt: true } }) : null,
    prisma.conversation.findMany({
      where: { AND: [sameVisitor(row), visible], NOT: { id: row.id } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: RELATED,
      select: { id: true, status: true, createdAt: true, lastActivityAt: true },
    }),
    prisma.conversation.aggregate({ where: { AND: [sameVisitor(row), visible] }, _count: { _all: true }, _min: { createdAt: true } }),
  ]);
  const newestPage = pages[0];
  const startPage = row.startPageUrl ? { url: row.startPageUrl, title: row.startPageTitle, at: row.createdAt } : null;
  const current = newestPage && (!startPage || newestPage.createdAt >= startPage.at) ? { url: newestPage.pageUrl, title: newestPage.pageTitle, at: newestPage.createdAt } : startPage;
  const firstSeen = [firstPage?.createdAt, counted._min.createdAt ?? row.createdAt].filter((at): at is Date => at instanceof Date);
  return {
    visitor: {
      ...visitorLook(row.visitorName, visitorSeed(row)),
      email: row.visitorEmail,
      user_id: row.userId,
      identity_verified: row.identityVerified,
      visitor_id: row.browserVisitorId,
      current_page: current ? { url: current.url, title: current.title, at: current.at.toISOString() } : null,
      pages: pages.map((page) => ({ url: page.pageUrl, title: page.pageTitle, referrer: page.referrer, at: page.createdAt.toISOString() })),
      ...summarizeUserAgent(row.userAgent),
      timezone: row.timezone,
      locale: row.locale,
      first_seen_at: new Date(Math.min(...firstSeen.map((at) => at.getTime()))).toISOString(),
      conversation_count: counted._count._all,
    },
    conversations: related.map((conversation) => ({
      id: conversation.id,
      status: conversation.status as RelatedConversation["status"],
      created_at: conversation.createdAt.toISOString(),
      last_activity_at: conversation.lastActivityAt.toISOString(),
    })),
  };
}

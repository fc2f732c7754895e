import { db } from "../db/client";

// "Other conversations of this user": a verified visitor's earlier (and later) conversations on
// the same site, found by the site's own user id (conversations (site_id, user_id) index). Only
// verified ids count: an unverified start never carries one (lib/identity).

const OTHER_CONVERSATIONS_SHOWN = 20;

export interface UserConversation {
  id: string;
  status: string;
  created_at: string;
  last_activity_at: string;
}

export async function otherConversationsOfUser(conversation: {
  id: string;
  site_id: string;
  user_id: string | null;
  identity_verified: boolean;
}): Promise<UserConversation[]> {
  if (!conversation.identity_verified || conversation.user_id === null) return [];
  const rows = await (await db()).conversation.findMany({
    where: { siteId: conversation.site_id, userId: conversation.user_id, identityVerified: true, id: { not: conversation.id } },
    orderBy: [{ lastActivityAt: "desc" }, { id: "desc" }],
    take: OTHER_CONVERSATIONS_SHOWN,
    select: { id: true, status: true, createdAt: true, lastActivityAt: true },
  });
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    last_activity_at: row.lastActivityAt.toISOString(),
  }));
}

import { listInboxConversations, unreadConversationCount } from "@/lib/inbox/conversations";
import { conversationListQuery } from "@/lib/inbox/schemas";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ query: conversationListQuery }, async ({ staff, query }) =>
    ok({ ...(await listInboxConversations(staff.member, query)), unread_total: await unreadConversationCount(staff.member.id) }),
  ),
});

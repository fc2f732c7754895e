import { listInboxConversations, unreadConversationCount } from "@/lib/conversations/inbox-conversations";
import { conversationListQuery } from "@/lib/contracts/inbox";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ query: conversationListQuery }, async ({ staff, query }) => {
    const [page, unreadTotal] = await Promise.all([listInboxConversations(staff.member, query), unreadConversationCount(staff.member)]);
    return ok({ ...page, unread_total: unreadTotal });
  }),
});

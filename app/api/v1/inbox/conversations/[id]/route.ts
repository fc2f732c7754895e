import { readInboxConversation } from "@/lib/conversations/inbox-conversations";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ sees: "conversation" }, async ({ staff, params }) => ok(await readInboxConversation(staff.member, params.id!))),
});

import { listMentions } from "@/lib/conversations/mentions";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async ({ staff }) => ok(await listMentions(staff.member.id))),
});

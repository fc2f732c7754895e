import { setInboxTyping } from "@/lib/conversations/inbox-conversations";
import { typingBody } from "@/lib/contracts/inbox";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ body: typingBody }, async ({ staff, params, body }) => ok(await setInboxTyping(staff.member, params.id!, body.typing))),
});

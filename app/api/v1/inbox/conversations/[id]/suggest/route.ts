import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { suggestReply } from "@/lib/answers/suggest-reply";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ sees: "conversation" }, async ({ staff, params }) => ok(await suggestReply(staff.member, params.id!))),
});

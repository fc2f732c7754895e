import { ok } from "@/lib/http/envelope";
import { defineRoute, visitorRoute } from "@/lib/api/route";
import { readMemberPicture } from "@/lib/members/members";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("visitor", {
  GET: visitorRoute({}, async ({ visitor, params }) =>
    ok(await readMemberPicture(visitor.conversation.id, params.userID!)),
  ),
});

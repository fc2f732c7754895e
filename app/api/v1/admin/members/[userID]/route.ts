import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { updateMember } from "@/lib/members/members";
import { updateMemberBody } from "@/lib/contracts/members";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  PATCH: adminRoute({ body: updateMemberBody, audit: { action: "member.updated" } }, async ({ params, body }) =>
    ok(await updateMember(params.userID!, body), "Member updated."),
  ),
});

import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { deactivateMember } from "@/lib/staff/team";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "owner", audit: { action: "member.deactivated" } }, async ({ params }) => ok(await deactivateMember(params.userID!), "Member deactivated.")),
});

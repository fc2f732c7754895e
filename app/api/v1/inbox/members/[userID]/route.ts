import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { teamMemberChanged } from "@/lib/api/audit-actions";
import { teamMemberBody } from "@/lib/contracts/staff";
import { updateTeamMember } from "@/lib/staff/team";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PATCH: inboxRoute({ role: "owner", body: teamMemberBody, audit: teamMemberChanged }, async ({ params, body }) => ok(await updateTeamMember(params.userID!, body), "Member updated.")),
});

import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { updateSlaPolicyBody } from "@/lib/contracts/sla";
import { deleteSlaPolicy, updateSlaPolicy } from "@/lib/sla/policies";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PATCH: inboxRoute({ role: "owner", body: updateSlaPolicyBody, audit: { action: "sla_policy.updated" } }, async ({ params, body }) => ok(await updateSlaPolicy(params.id!, body), "SLA policy updated.")),
  DELETE: inboxRoute({ role: "owner", audit: { action: "sla_policy.deleted" } }, async ({ params }) => ok(await deleteSlaPolicy(params.id!), "SLA policy deleted.")),
});

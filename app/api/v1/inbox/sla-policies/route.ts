import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { createSlaPolicyBody } from "@/lib/contracts/sla";
import { createSlaPolicy, listSlaPolicies } from "@/lib/sla/policies";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner" }, async () => ok(await listSlaPolicies())),
  POST: inboxRoute({ role: "owner", body: createSlaPolicyBody, audit: { action: "sla_policy.created" } }, async ({ body }) => created(await createSlaPolicy(body), "SLA policy created.")),
});

import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { updateRuleBody } from "@/lib/contracts/rules";
import { deleteRule, updateRule } from "@/lib/rules/rules";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PATCH: inboxRoute({ role: "owner", body: updateRuleBody, audit: { action: "rule.updated" } }, async ({ params, body }) => ok(await updateRule(params.id!, body), "Rule updated.")),
  DELETE: inboxRoute({ role: "owner", audit: { action: "rule.deleted" } }, async ({ params }) => ok(await deleteRule(params.id!), "Rule deleted.")),
});

import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { createRuleBody } from "@/lib/contracts/rules";
import { createRule, listRules } from "@/lib/rules/rules";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner" }, async () => ok(await listRules())),
  POST: inboxRoute({ role: "owner", body: createRuleBody, audit: { action: "rule.created" } }, async ({ body }) => created(await createRule(body), "Rule created.")),
});

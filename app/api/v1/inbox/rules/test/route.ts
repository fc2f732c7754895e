import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { testRuleBody } from "@/lib/contracts/rules";
import { testRule } from "@/lib/rules/dry-run";

// The dry run changes nothing: no audit row.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "owner", body: testRuleBody }, async ({ body }) => ok(await testRule(body))),
});

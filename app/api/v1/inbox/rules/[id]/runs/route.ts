import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { listRuleRuns } from "@/lib/rules/rules";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner" }, async ({ params }) => ok(await listRuleRuns(params.id!))),
});

import { buildReport } from "@/lib/reports/report";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { reportQuery } from "@/lib/contracts/reports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner", query: reportQuery }, async ({ query }) => ok(await buildReport(query))),
});

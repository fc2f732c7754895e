import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { auditQuery } from "@/lib/contracts/audit";
import { listAudit } from "@/lib/audit/list-audit";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner", query: auditQuery }, async ({ query }) => ok(await listAudit(query))),
});

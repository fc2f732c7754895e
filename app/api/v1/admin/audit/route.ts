import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { auditQuery } from "@/lib/contracts/audit";
import { listAudit } from "@/lib/audit/list-audit";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: auditQuery }, async ({ query }) => ok(await listAudit(query))),
});

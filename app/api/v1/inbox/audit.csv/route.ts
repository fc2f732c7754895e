import { defineRoute, inboxRoute } from "@/lib/api/route";
import { auditCsvQuery } from "@/lib/contracts/audit";
import { auditCsvDownload } from "@/lib/audit/audit-csv";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner", query: auditCsvQuery }, async ({ query }) => auditCsvDownload(query)),
});

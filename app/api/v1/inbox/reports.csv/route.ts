import { reportCsv, reportCsvName } from "@/lib/reports/report-csv";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { reportQuery } from "@/lib/contracts/reports";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner", query: reportQuery }, async ({ query }) => {
    const name = reportCsvName(query);
    return new Response(await reportCsv(query), {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}"`, "Cache-Control": "no-store" },
    });
  }),
});

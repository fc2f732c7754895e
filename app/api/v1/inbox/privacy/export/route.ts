import { defineRoute, inboxRoute } from "@/lib/api/route";
import { privacyRequestBody } from "@/lib/contracts/privacy";
import { privacyExportAudit } from "@/lib/api/privacy-audit";
import { exportDownload } from "@/lib/privacy/privacy-requests";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "owner", body: privacyRequestBody, audit: privacyExportAudit }, async ({ body }) => exportDownload(body)),
});

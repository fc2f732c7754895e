import { adminRoute, defineRoute } from "@/lib/api/route";
import { privacyRequestBody } from "@/lib/contracts/privacy";
import { privacyExportAudit } from "@/lib/api/privacy-audit";
import { exportDownload } from "@/lib/privacy/privacy-requests";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ body: privacyRequestBody, audit: privacyExportAudit }, async ({ body }) => exportDownload(body)),
});

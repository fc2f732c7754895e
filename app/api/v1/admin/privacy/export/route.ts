import { adminRoute, defineRoute } from "@/lib/api/route";
import { privacyRequestBody } from "@/lib/contracts/privacy";
import { exportDownload } from "@/lib/privacy/privacy-requests";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  // audit: privacy.export
  POST: adminRoute({ body: privacyRequestBody }, async ({ body }) => exportDownload(body)),
});

import { defineRoute, inboxRoute } from "@/lib/api/route";
import { privacyRequestBody } from "@/lib/contracts/privacy";
import { exportDownload } from "@/lib/privacy/privacy-requests";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  // audit: privacy.export
  POST: inboxRoute({ role: "owner", body: privacyRequestBody }, async ({ body }) => exportDownload(body)),
});

import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { updateSite } from "@/lib/sites/manage-sites";
import { updateSiteBody } from "@/lib/contracts/sites";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  PATCH: adminRoute({ body: updateSiteBody, audit: { action: "site.settings_changed" } }, async ({ params, body }) =>
    ok(await updateSite(params.siteID!, body), "Site updated."),
  ),
});

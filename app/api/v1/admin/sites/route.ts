import { created, ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { createSite, listSites } from "@/lib/sites/manage-sites";
import { createSiteBody } from "@/lib/contracts/sites";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({}, async () => ok(await listSites())),
  POST: adminRoute({ body: createSiteBody, audit: { action: "site.created" } }, async ({ body }) => created(await createSite(body), "Site created.")),
});

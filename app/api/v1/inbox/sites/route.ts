import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { createSite, listSites } from "@/lib/sites/manage-sites";
import { createSiteBody } from "@/lib/contracts/sites";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async () => ok(await listSites())),
  POST: inboxRoute({ role: "owner", body: createSiteBody, audit: { action: "site.created" } }, async ({ body }) => created(await createSite(body), "Site created.")),
});

import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/http/route";
import { siteQuery } from "@/lib/sites/schemas";
import { listTickets } from "@/lib/tickets/operator-tickets";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: siteQuery }, async ({ query }) => ok(await listTickets(query.site))),
});

import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { siteQuery } from "@/lib/contracts/sites";
import { listTickets } from "@/lib/tickets/operator-tickets";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: siteQuery }, async ({ query }) => ok(await listTickets(query.site))),
});

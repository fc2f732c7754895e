import { listInboxTickets } from "@/lib/inbox/tickets";
import { ticketListQuery } from "@/lib/inbox/schemas";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/http/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ query: ticketListQuery }, async ({ query }) => ok(await listInboxTickets(query.site))),
});

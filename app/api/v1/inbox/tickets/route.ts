import { listInboxTickets } from "@/lib/tickets/inbox-tickets";
import { viewerOf } from "@/lib/teams/access";
import { ticketListQuery } from "@/lib/contracts/inbox";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ query: ticketListQuery }, async ({ staff, query }) => ok(await listInboxTickets(query, await viewerOf(staff.member)))),
});

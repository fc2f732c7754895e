import { readInboxTicket } from "@/lib/tickets/inbox-tickets";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async ({ params }) => ok(await readInboxTicket(params.id!))),
});

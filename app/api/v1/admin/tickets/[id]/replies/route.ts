import { created } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { replyToTicket } from "@/lib/tickets/ticket-replies";
import { ticketReplyBody } from "@/lib/contracts/tickets";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ body: ticketReplyBody }, async ({ params, body }) =>
    created(await replyToTicket(params.id!, body), "Reply saved; it is emailed to the filer."),
  ),
});

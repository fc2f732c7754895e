import { created } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/http/route";
import { replyToTicket, ticketReplyBody } from "@/lib/tickets/ticket-replies";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ body: ticketReplyBody }, async ({ params, body }) =>
    created(await replyToTicket(params.id!, body), "Reply saved; it is emailed to the filer."),
  ),
});

import { created } from "@/lib/http/envelope";
import { inboxTicketReplyBody } from "@/lib/contracts/inbox";
import { ticketStatusWithReply } from "@/lib/api/audit-actions";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { replyToTicket } from "@/lib/tickets/ticket-replies";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ sees: "ticket", body: inboxTicketReplyBody, audit: ticketStatusWithReply }, async ({ params, body, staff }) =>
    created(await replyToTicket(params.id!, { authorId: staff.member.id, body: body.body, status: body.status }), "Reply saved; it is emailed to the filer."),
  ),
});

import { readInboxTicket } from "@/lib/tickets/inbox-tickets";
import { triageTicket } from "@/lib/tickets/triage-ticket";
import { ticketTriageBody } from "@/lib/contracts/inbox";
import { ticketTriaged } from "@/lib/api/audit-actions";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ sees: "ticket" }, async ({ staff, params }) => ok(await readInboxTicket(staff.member, params.id!))),
  PATCH: inboxRoute({ sees: "ticket", body: ticketTriageBody, audit: ticketTriaged }, async ({ params, body, staff }) => {
    await triageTicket(params.id!, { status: body.status, assigneeId: body.assignee_id, priority: body.priority }, staff.member.id);
    return ok(await readInboxTicket(staff.member, params.id!), "Ticket updated.");
  }),
});

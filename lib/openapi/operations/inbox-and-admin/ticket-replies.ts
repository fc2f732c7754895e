import { inboxTicketReplyBody } from "../../../contracts/inbox";
import * as wire from "../../../contracts/notification-wire";
import { ticketReplyBody } from "../../../contracts/tickets";
import { routes, type OperationSpec } from "../../operation";

// A reply to a ticket (lib/tickets/ticket-replies.ts), emailed to the filer. In the inbox the
// signed-in member is the author, so its body names none.
const reply: OperationSpec = {
  summary: "Reply to a ticket (emailed to the filer)",
  extension: true,
  body: ticketReplyBody,
  answers: { 201: wire.ticketReply },
  errors: ["not_found", "member_not_found"],
};

export const ticketReplyOperations = routes({
  "v1/admin/tickets/[id]/replies": { POST: reply },
  "v1/inbox/tickets/[id]/replies": { POST: { ...reply, body: inboxTicketReplyBody, errors: ["not_found"] } },
});

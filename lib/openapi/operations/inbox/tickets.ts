import { ticketListQuery, ticketTriageBody } from "../../../contracts/inbox";
import * as inbox from "../../../contracts/inbox-wire";
import { routes } from "../../operation";

export const inboxTickets = routes({
  "v1/inbox/tickets": {
    GET: {
      summary: "The newest 200 tickets with their attachments, filtered by site, status, assignee and priority",
      description:
        "`status` defaults to `all`; `assignee` is `me`, `none` or a member's id (an unknown id or site lists nothing). Pages by `cursor` (a `next_cursor`) and `limit` (1..200, default 50), newest first with ties by id.",
      extension: true,
      query: ticketListQuery,
      answers: { 200: inbox.inboxTicketPage },
    },
  },
  "v1/inbox/tickets/[id]": {
    GET: {
      summary: "One ticket with its attachments, replies and triage events (oldest first)",
      extension: true,
      answers: { 200: inbox.inboxTicketDetail },
      errors: ["not_found"],
    },
    PATCH: {
      summary: "Set a ticket's status, assignee (null unassigns) or priority; each change is a triage event and the request an audit row",
      description: "The assignee is an active member who can sign in (not a bot). Answers the ticket as GET reads it. A refused request changes nothing.",
      extension: true,
      body: ticketTriageBody,
      answers: { 200: inbox.inboxTicketDetail },
      errors: ["not_found", "member_not_found"],
    },
  },
});

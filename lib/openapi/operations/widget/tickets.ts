import { ticketBody } from "../../../contracts/tickets";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const widgetTickets = routes({
  "v1/chat/widget/[siteID]/tickets": {
    POST: {
      summary: "File a request (ticket) with files",
      body: ticketBody,
      headers: [
        {
          name: "Idempotency-Key",
          description: "Optional; a replay within 24 h returns the original reply and draws nothing.",
          schema: { type: "string", minLength: 1, maxLength: 100, pattern: "^[\\x21-\\x7E]+$" },
        },
      ],
      answers: { 201: wire.ticketReceipt },
      errors: ["idempotency_conflict", "daily_allowance_exhausted"],
    },
  },
});

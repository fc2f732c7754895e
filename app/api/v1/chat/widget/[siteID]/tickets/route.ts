import { created } from "@/lib/http/envelope";
import { defineRoute, widgetRoute } from "@/lib/api/route";
import { fileTicket } from "@/lib/tickets/file-ticket";
import { idempotencyKeyOf, ticketBody } from "@/lib/contracts/tickets";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("widget", {
  POST: widgetRoute({ body: ticketBody, rateLimit: "tickets" }, async ({ site, origin, body, request }) =>
    created(await fileTicket({ site, origin, input: body, idempotencyKey: idempotencyKeyOf(request.headers) }), "Request received."),
  ),
});

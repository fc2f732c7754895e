import { listOutbox } from "@/lib/email/sending/outbox";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { outboxQuery } from "@/lib/contracts/outbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner", query: outboxQuery }, async ({ query }) => ok(await listOutbox(query))),
});

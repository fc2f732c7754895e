import { listOutbox } from "@/lib/email/sending/outbox";
import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { outboxQuery } from "@/lib/contracts/outbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: outboxQuery }, async ({ query }) => ok(await listOutbox(query))),
});

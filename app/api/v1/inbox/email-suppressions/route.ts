import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { suppressionQuery } from "@/lib/contracts/suppressions";
import { listSuppressions } from "@/lib/email/suppression/suppression-list";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner", query: suppressionQuery }, async ({ query }) => ok(await listSuppressions(query))),
});

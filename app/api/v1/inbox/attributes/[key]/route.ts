import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { deleteAttributeDefinition } from "@/lib/attributes/definitions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  DELETE: inboxRoute({ role: "owner", audit: { action: "attribute.deleted" } }, async ({ params }) => ok(await deleteAttributeDefinition(params.key!), "Attribute deleted.")),
});

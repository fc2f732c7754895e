import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { createAttributeBody } from "@/lib/contracts/attributes";
import { createAttributeDefinition, listAttributeDefinitions } from "@/lib/attributes/definitions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async () => ok(await listAttributeDefinitions())),
  POST: inboxRoute(
    { role: "owner", body: createAttributeBody, audit: { action: "attribute.created", target: (_context, result) => `attribute:${result.key}` } },
    async ({ body }) => created(await createAttributeDefinition(body), "Attribute created."),
  ),
});

import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { createLabelBody } from "@/lib/contracts/labels";
import { createLabel, listLabels } from "@/lib/labels/labels";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async () => ok(await listLabels())),
  POST: inboxRoute({ role: "owner", body: createLabelBody, audit: { action: "label.created" } }, async ({ body }) => created(await createLabel(body), "Label created.")),
});

import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { updateLabelBody } from "@/lib/contracts/labels";
import { deleteLabel, updateLabel } from "@/lib/labels/labels";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PATCH: inboxRoute({ role: "owner", body: updateLabelBody, audit: { action: "label.updated" } }, async ({ params, body }) => ok(await updateLabel(params.id!, body), "Label updated.")),
  DELETE: inboxRoute({ role: "owner", audit: { action: "label.deleted" } }, async ({ params }) => ok(await deleteLabel(params.id!), "Label deleted.")),
});

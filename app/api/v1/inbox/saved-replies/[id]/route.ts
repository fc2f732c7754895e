import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { updateSavedReplyBody } from "@/lib/contracts/saved-replies";
import { deleteSavedReply, updateSavedReply } from "@/lib/saved-replies/saved-replies";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PATCH: inboxRoute({ body: updateSavedReplyBody }, async ({ staff, params, body }) => ok(await updateSavedReply(staff.member, params.id!, body), "Saved reply updated.")),
  DELETE: inboxRoute({}, async ({ staff, params }) => ok(await deleteSavedReply(staff.member, params.id!), "Saved reply deleted.")),
});

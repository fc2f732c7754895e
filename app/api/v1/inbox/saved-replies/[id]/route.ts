import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { savedReplyChanged } from "@/lib/api/audit-actions";
import { updateSavedReplyBody } from "@/lib/contracts/saved-replies";
import { deleteSavedReply, updateSavedReply } from "@/lib/saved-replies/saved-replies";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PATCH: inboxRoute({ body: updateSavedReplyBody, audit: savedReplyChanged("saved_reply.updated") }, async ({ staff, params, body }) => ok(await updateSavedReply(staff.member, params.id!, body), "Saved reply updated.")),
  DELETE: inboxRoute({ audit: savedReplyChanged("saved_reply.deleted") }, async ({ staff, params }) => ok(await deleteSavedReply(staff.member, params.id!), "Saved reply deleted.")),
});

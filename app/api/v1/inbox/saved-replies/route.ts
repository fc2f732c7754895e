import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { savedReplyChanged } from "@/lib/api/audit-actions";
import { createSavedReplyBody } from "@/lib/contracts/saved-replies";
import { createSavedReply, listSavedReplies } from "@/lib/saved-replies/saved-replies";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async ({ staff }) => ok(await listSavedReplies(staff.member))),
  POST: inboxRoute({ body: createSavedReplyBody, audit: savedReplyChanged("saved_reply.created") }, async ({ staff, body }) => created(await createSavedReply(staff.member, body), "Saved reply created.")),
});

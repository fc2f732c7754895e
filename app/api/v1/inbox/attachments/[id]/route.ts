import { downloadAttachment } from "@/lib/tickets/inbox-tickets";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async ({ params }) => downloadAttachment(params.id!)),
});

import { defineRoute, visitorRoute } from "@/lib/api/route";
import { downloadVisitorFile } from "@/lib/conversations/message-attachments";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("visitor", {
  GET: visitorRoute({}, async ({ visitor, params }) => downloadVisitorFile(visitor.conversation.id, params.id!)),
});

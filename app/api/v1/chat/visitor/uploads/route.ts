import { created } from "@/lib/http/envelope";
import { defineRoute, visitorRoute } from "@/lib/api/route";
import { fileDescriptor } from "@/lib/contracts/tickets";
import { createChatUpload } from "@/lib/conversations/message-attachments";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("visitor", {
  POST: visitorRoute({ body: fileDescriptor }, async ({ visitor, body }) =>
    created(await createChatUpload(visitor.conversation.id, "visitor", body), "Upload the file to upload_url, then send it."),
  ),
});

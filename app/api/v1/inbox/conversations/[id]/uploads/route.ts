import { created } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { fileDescriptor } from "@/lib/contracts/tickets";
import { createChatUpload } from "@/lib/conversations/message-attachments";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ sees: "conversation", body: fileDescriptor }, async ({ params, body }) =>
    created(await createChatUpload(params.id!, "staff", body), "Upload the file to upload_url, then send it."),
  ),
});

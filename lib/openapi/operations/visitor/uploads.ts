import { fileDescriptor } from "../../../contracts/tickets";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const visitorUploads = routes({
  "v1/chat/visitor/uploads": {
    POST: {
      summary: "Describe a file to send in the chat; answers its one-use upload URL",
      extension: true,
      description:
        "The tickets' types and limits. PUT the bytes to `upload_url` (with `upload_headers`, if any), then send `attachments: [attachment_id]` " +
        "with a message. Bytes that do not start with the declared type's signature are refused and the file never appears.",
      body: fileDescriptor,
      answers: { 201: wire.chatUpload },
    },
  },
});

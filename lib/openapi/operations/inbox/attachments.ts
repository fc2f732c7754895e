import { ATTACHMENT_DOWNLOAD } from "../shared";
import { routes } from "../../operation";

export const inboxAttachments = routes({
  "v1/inbox/attachments/[id]": {
    GET: {
      summary: "Download a ticket's or a conversation's file",
      extension: true,
      answers: {},
      rawAnswer: ATTACHMENT_DOWNLOAD,
      errors: ["not_found"],
    },
  },
});

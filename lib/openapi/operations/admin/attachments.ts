import { ATTACHMENT_DOWNLOAD } from "../shared";
import { routes } from "../../operation";

export const adminAttachments = routes({
  "v1/admin/attachments/[id]": {
    GET: {
      summary: "Download a ticket's or a conversation's file",
      extension: true,
      answers: {},
      rawAnswer: ATTACHMENT_DOWNLOAD,
      errors: ["not_found"],
    },
  },
});

import { FILE_CONTENT_TYPES } from "../../../contracts/tickets";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const uploadFiles = routes({
  "v1/uploads/[attachmentId]": {
    PUT: {
      summary: "Upload a ticket's or a chat's file (the service's own signed upload URL)",
      extension: true,
      rawBody: FILE_CONTENT_TYPES,
      answers: { 200: wire.uploadedFile },
      errors: ["already_uploaded"],
    },
  },
});

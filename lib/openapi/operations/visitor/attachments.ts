import { routes } from "../../operation";

export const visitorAttachments = routes({
  "v1/chat/visitor/attachments/[id]": {
    GET: {
      summary: "Download a file of the token's conversation",
      extension: true,
      description: "A file sent in a public message, or the visitor's own upload; any other id (another conversation's) is 404.",
      answers: {},
      rawAnswer: {
        status: 200,
        contentType: "application/octet-stream",
        description:
          "The file's bytes (not the envelope), `Content-Type` the stored media type, `Content-Disposition: inline` for PNG, JPEG, GIF and WebP " +
          "and `attachment` for every other type, `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src 'none'; sandbox`.",
      },
      errors: ["not_found"],
    },
  },
});

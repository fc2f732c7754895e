import { ok } from "@/lib/http/envelope";
import { defineRoute, uploadRoute } from "@/lib/api/route";
import { receiveUpload } from "@/lib/uploads/receive-upload";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("upload", {
  PUT: uploadRoute(async ({ grant, request }) => ok(await receiveUpload(grant, request), "File uploaded.")),
});

import { downloadStaffFile } from "@/lib/uploads/stored-files";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ sees: "file" }, async ({ params }) => downloadStaffFile(params.id!)),
});

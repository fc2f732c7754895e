import { downloadStaffFile } from "@/lib/uploads/stored-files";
import { adminRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({}, async ({ params }) => downloadStaffFile(params.id!)),
});

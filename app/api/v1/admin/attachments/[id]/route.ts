import { downloadAttachment } from "@/lib/tickets/inbox-tickets";
import { adminRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({}, async ({ params }) => downloadAttachment(params.id!)),
});

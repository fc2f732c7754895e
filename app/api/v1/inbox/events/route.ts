import { inboxEventStream } from "@/lib/inbox/event-stream";
import { defineRoute, inboxRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async ({ staff, request }) => inboxEventStream(staff, request.signal)),
});

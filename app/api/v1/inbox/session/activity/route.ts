import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { recordInboxInput } from "@/lib/availability/availability";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({}, async ({ staff }) => ok({ availability: await recordInboxInput(staff.member.id) }, "Activity recorded.")),
});

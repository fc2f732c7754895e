import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { availabilityBody } from "@/lib/contracts/routing";
import { chooseAvailability } from "@/lib/availability/availability";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PUT: inboxRoute({ body: availabilityBody }, async ({ staff, body }) =>
    ok({ availability: await chooseAvailability(staff.member.id, body.availability) }, "Availability set."),
  ),
});

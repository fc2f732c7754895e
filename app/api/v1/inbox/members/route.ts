import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/http/route";
import { listTeam } from "@/lib/staff/team";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async () => ok(await listTeam())),
});

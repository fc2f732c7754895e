import { setStaffPresence } from "@/lib/conversations/operator-conversations";
import { staffPresenceBody } from "@/lib/contracts/conversations";
import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ body: staffPresenceBody }, async ({ params, body }) =>
    ok(await setStaffPresence(params.id!, body), "Presence set."),
  ),
});

import { ok } from "@/lib/http/envelope";
import { defineRoute, visitorRoute } from "@/lib/api/route";
import { renewVisitorToken } from "@/lib/tokens/visitor-token";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("visitor", {
  POST: visitorRoute({ rateLimit: "renew" }, async ({ visitor }) => ok(await renewVisitorToken(visitor), "Token renewed.")),
});

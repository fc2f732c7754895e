import { ok } from "@/lib/http/envelope";
import { defineRoute, visitorRoute } from "@/lib/api/route";
import { requestHandoff } from "@/lib/answers/handoff";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("visitor", {
  POST: visitorRoute({}, async ({ visitor }) =>
    ok(null, (await requestHandoff(visitor.conversation.id)) ? "A person will answer here." : "A person was already asked for."),
  ),
});

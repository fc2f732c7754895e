import { created } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/http/route";
import { createMember } from "@/lib/members/members";
import { createMemberBody } from "@/lib/members/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ body: createMemberBody }, async ({ body }) => created(await createMember(body), "Member created.")),
});

import { created, ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { createMember, listMembers } from "@/lib/members/members";
import { createMemberBody } from "@/lib/contracts/members";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({}, async () => ok(await listMembers())),
  POST: adminRoute({ body: createMemberBody, audit: { action: "member.created" } }, async ({ body }) => created(await createMember(body), "Member created.")),
});

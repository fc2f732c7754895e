import { searchQuery } from "@/lib/contracts/search";
import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { search } from "@/lib/search/search";
import { OPERATOR } from "@/lib/teams/access";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: searchQuery, rateLimit: "search" }, async ({ query }) => ok(await search(OPERATOR, query))),
});

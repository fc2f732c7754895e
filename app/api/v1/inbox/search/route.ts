import { searchQuery } from "@/lib/contracts/search";
import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { search } from "@/lib/search/search";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ query: searchQuery, rateLimit: "search" }, async ({ staff, query }) => ok(await search(staff.member, query))),
});

import { searchPage, searchQuery } from "../../../contracts/search";
import { routes, type OperationSpec } from "../../operation";

// Search (decisions.md, round 3, "Search"; docs/api.md, "Search"): one query and one answer for
// the inbox (session) and the operator API (token).
const search: OperationSpec = {
  summary: "Search conversations and tickets",
  description:
    "Message bodies (notes included), visitor names and emails, ticket numbers (`#123`), subjects, bodies, replies and file names; " +
    "case- and accent-insensitive, English stemming, the last word matched as a prefix. One item per conversation or ticket, newest match first. " +
    "`status` other than `all` and `label` leave tickets out. A `q`, `limit` or `cursor` out of shape: 400 `invalid_request`. " +
    "Limited per member, and for the operator token as one account (RATE_LIMIT_SEARCH_PER_MINUTE, 60): 429 `rate_limited` beyond, with Retry-After and X-RateLimit-*.",
  extension: true,
  query: searchQuery,
  answers: { 200: searchPage },
  errors: ["rate_limited"],
};

export const searchOperations = routes({ "v1/inbox/search": { GET: search }, "v1/admin/search": { GET: search } });

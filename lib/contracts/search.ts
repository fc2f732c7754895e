import { z } from "zod";
import { keysetCursor, queryInteger } from "../core/validation/cursors";
import { clientId, singleLineText } from "../core/validation/strings";
import { isoTime, named } from "./wire";

// Search over conversations and tickets (decisions.md, round 3, "Search"; docs/search.md):
// GET /api/v1/inbox/search (session) and GET /api/v1/admin/search (operator), one query shape.

export const MAX_SEARCH_LENGTH = 200;
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 50;
/** A snippet's longest length, markers included. */
export const MAX_SNIPPET_LENGTH = 240;

const filterId = clientId(100);

export const searchQuery = z.strictObject({
  /** 1..200 characters after trimming. */
  q: singleLineText(MAX_SEARCH_LENGTH),
  site: filterId.optional(),
  /** A conversation status; any but `all` leaves tickets out (they have none of these). */
  status: z.enum(["open", "snoozed", "closed", "all"]).default("all"),
  /** A label's id: only conversations that carry it (tickets carry no labels). */
  label: filterId.optional(),
  cursor: keysetCursor().optional(),
  limit: queryInteger(1, MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
});
export type SearchQuery = z.output<typeof searchQuery>;

export const SEARCH_MATCHED_IN = ["message", "note", "visitor", "ticket", "file"] as const;
export type SearchMatchedIn = (typeof SEARCH_MATCHED_IN)[number];

export const searchResult = named(
  "SearchResult",
  z.object({
    type: z.enum(["conversation", "ticket"]),
    id: z.string().describe("the conversation's or the ticket's id"),
    site_id: z.string(),
    title: z.string().describe("a conversation: the visitor's name as the inbox shows it (given, else generated, e.g. \"Willow Seal\"); a ticket: `#<number> <subject>`"),
    matched_in: z
      .enum(SEARCH_MATCHED_IN)
      .describe("where the match is: a public `message`, a private `note`, the `visitor`'s name or email, a `ticket`'s text or reply, a `file` name (chat or ticket)"),
    snippet: z.string().max(MAX_SNIPPET_LENGTH).describe("plain text around the match, the matched words wrapped in `<<` `>>`"),
    matched_at: isoTime.describe("when the matched text was written (a visitor's name or email: the conversation's last activity)"),
    message_id: z.string().nullable().describe("extension: a conversation's matching message (the inbox opens it at `?m=<id>`); null otherwise"),
  }),
);
export type SearchResult = z.infer<typeof searchResult>;

export const searchPage = named(
  "SearchPage",
  z.object({
    items: z.array(searchResult).describe("newest match first; one item per conversation or ticket"),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
  }),
);

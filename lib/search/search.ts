import { sqlExecutor } from "../db/client";
import type { SearchQuery, SearchResult } from "../contracts/search";
import { encodeKeysetCursor } from "../core/validation/cursors";
import { searchSnippet } from "./snippet";
import { RECENT_SEARCH_PAGE, RECENT_WINDOW, SEARCH_PAGE, type SearchRow } from "./statements";

// Search over conversations and tickets for staff (the inbox and the operator API; notes included):
// decisions.md, round 3, "Search"; docs/search.md. Every member sees every site, as in the list.

/** A q of just `#123` asks for ticket 123 (by number only: "123" in a text is not that ticket). */
const TICKET_NUMBER = /^#([0-9]{1,9})$/;

/** `recentWindow`: how many of the newest conversations the first page looks at first (statements.ts). */
export async function search(query: SearchQuery, recentWindow = RECENT_WINDOW) {
  const ticketNumber = TICKET_NUMBER.exec(query.q)?.[1];
  const values = [
    ticketNumber === undefined ? query.q : null,
    ticketNumber === undefined ? null : Number(ticketNumber),
    query.site ?? null,
    query.status === "all" ? null : query.status,
    query.label ?? null,
    query.cursor?.at ?? null,
    query.cursor?.id ?? null,
    query.limit + 1,
  ];
  const sql = await sqlExecutor();
  // The first page of words tries the newest conversations first (statements.ts): a full page
  // there is the answer. A ticket number is one index probe: straight to the whole search.
  const tryRecent = !query.cursor && ticketNumber === undefined;
  let rows = tryRecent ? ((await sql.executeSql(RECENT_SEARCH_PAGE, [...values, recentWindow])).rows as SearchRow[]) : [];
  if (rows.length <= query.limit) rows = (await sql.executeSql(SEARCH_PAGE, values)).rows as SearchRow[];
  const items = rows.slice(0, query.limit).map(toResult);
  const last = rows.length > query.limit ? rows[query.limit - 1] : undefined;
  return {
    items,
    next_cursor: last ? encodeKeysetCursor({ at: last.matched_at, id: last.id }) : null,
    has_more: last !== undefined,
  };
}

function toResult(row: SearchRow): SearchResult {
  return {
    type: row.type,
    id: row.id,
    site_id: row.site_id,
    title: row.title,
    snippet: searchSnippet(row.doc, row.folded, row.headline),
    matched_at: row.matched_at.toISOString(),
    message_id: row.message_id,
  };
}

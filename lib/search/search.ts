import { sqlExecutor } from "../db/client";
import type { SearchQuery, SearchResult } from "../contracts/search";
import { encodeKeysetCursor } from "../core/validation/cursors";
import { searchSnippet } from "./snippet";
import { INDEXED_WINDOW_PAGE, SCAN_WINDOW_PAGE, SEARCH_PAGE, WINDOW_BOUND, type SearchRow } from "./statements";

// Search over conversations and tickets for staff (the inbox and the operator API; notes included):
// decisions.md, round 3, "Search"; docs/search.md. Every member sees every site, as in the list.

/** A q of just `#123` asks for ticket 123 (by number only: "123" in a text is not that ticket). */
const TICKET_NUMBER = /^#([0-9]{1,9})$/;

/** The windows a first page of words looks at, in order (statements.ts): how many of the newest conversations. */
export interface SearchWindows {
  scan: number[];
  indexed: number[];
}
export const SEARCH_WINDOWS: SearchWindows = { scan: [100], indexed: [10_000, 100_000] };

/** `windows`: tests compare every window with the whole search (none). */
export async function search(query: SearchQuery, windows: SearchWindows = SEARCH_WINDOWS) {
  const ticketNumber = TICKET_NUMBER.exec(query.q)?.[1];
  const filters = [query.site ?? null, query.status === "all" ? null : query.status, query.label ?? null];
  const values = [
    ticketNumber === undefined ? query.q : null,
    ticketNumber === undefined ? null : Number(ticketNumber),
    ...filters,
    query.cursor?.at ?? null,
    query.cursor?.id ?? null,
    query.limit + 1,
  ];
  const sql = await sqlExecutor();
  const page = (statement: string, bound?: Date | string) =>
    sql.transaction(async (tx) => {
      // JIT compiling pays off for long analytic queries; here its compile time (up to a second
      // for the whole search's plan at 10 M messages) would be most of the answer's.
      await tx.executeSql("SET LOCAL jit = off");
      // The planner prices a GIN prefix match high and to_tsvector on a row low (each off by ten
      // times or more), so for a window it would rather match every message in the time range
      // one by one than intersect the two indexes: a dearer row function tips it to the indexes.
      if (statement === INDEXED_WINDOW_PAGE) await tx.executeSql("SET LOCAL cpu_operator_cost = 0.05");
      return (await tx.executeSql(statement, bound === undefined ? values : [...values, bound])).rows as SearchRow[];
    });
  // A ticket number is one index probe, and later pages continue the whole search: straight to it.
  if (!query.cursor && ticketNumber === undefined) {
    const passes = [...windows.scan.map((size) => [SCAN_WINDOW_PAGE, size] as const), ...windows.indexed.map((size) => [INDEXED_WINDOW_PAGE, size] as const)];
    for (const [statement, size] of passes) {
      const bound = ((await sql.executeSql(WINDOW_BOUND, [...filters, size])).rows[0]?.at as Date | undefined) ?? "-infinity";
      const rows = await page(statement, bound);
      // A full page of sure items is the answer; so is any page of a window that held every conversation.
      if (rows.length > query.limit || bound === "-infinity") return toPage(rows, query.limit);
    }
  }
  return toPage(await page(SEARCH_PAGE), query.limit);
}

function toPage(rows: SearchRow[], limit: number) {
  const items = rows.slice(0, limit).map(toResult);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
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

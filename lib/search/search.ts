import { sqlExecutor } from "../db/client";
import type { SearchQuery, SearchResult } from "../contracts/search";
import { encodeKeysetCursor } from "../core/validation/cursors";
import { searchSnippet } from "./snippet";
import type { Looker } from "../teams/access";
import { INDEXED_RANGE_PAGE, INDEXED_WINDOW_PAGE, SCAN_RANGE_PAGE, SCAN_WINDOW_PAGE, SEARCH_PAGE, WINDOW_BOUND, type SearchRow } from "./statements";

// Search over conversations and tickets for staff (the inbox and the operator API; notes included):
// decisions.md, round 3, "Search"; docs/search.md. Only what the member may see (docs/teams.md), as in the list.

/** A q of just `#123` asks for ticket 123 (by number only: "123" in a text is not that ticket). */
const TICKET_NUMBER = /^#([0-9]{1,9})$/;

/**
 * The windows a page of words looks at, in order (statements.ts): how many of the newest
 * conversations (a later page: of those last active before its cursor).
 */
export interface SearchWindows {
  scan: number[];
  indexed: number[];
}
export const SEARCH_WINDOWS: SearchWindows = { scan: [100], indexed: [10_000, 100_000] };

/** A scanned window is never widened past this many conversations (each of their messages is parsed). */
const WIDEST_SCAN = 1_000;

/**
 * After the last scanned window of `size` conversations found `found` items, not a page: the
 * window that would likely hold a page (twice the size that `found` suggests), when that is at
 * most WIDEST_SCAN; else null (the words are rare: the indexes find them sooner). Words common
 * enough to half fill a scanned window are what the indexes are slowest at: two of them at 10 M
 * messages made the index scan read millions of entries (docs/search.md, "Windows").
 */
export function widerScan(size: number, found: number, limit: number): number | null {
  if (found === 0) return null;
  const wider = Math.max(2 * size, Math.ceil((2 * size * (limit + 1)) / found));
  return wider <= WIDEST_SCAN ? wider : null;
}

/** `windows`: tests compare every window with the whole search (none). */
export async function search(looker: Looker, query: SearchQuery, windows: SearchWindows = SEARCH_WINDOWS) {
  const ticketNumber = TICKET_NUMBER.exec(query.q)?.[1];
  const filters = [query.site ?? null, query.status === "all" ? null : query.status, query.label ?? null];
  const values = [
    ticketNumber === undefined ? query.q : null,
    ticketNumber === undefined ? null : Number(ticketNumber),
    ...filters,
    query.cursor?.at ?? null,
    query.cursor?.id ?? null,
    query.limit + 1,
    looker.id,
    looker.role,
  ];
  const sql = await sqlExecutor();
  const page = (statement: string, bound?: Date | string) =>
    sql.transaction(async (tx) => {
      // The planner prices a GIN prefix match high and to_tsvector on a row low (each off by ten
      // times or more), so for a window it would rather match every message in the time range
      // one by one than intersect the two indexes: a dearer row function tips it to the indexes.
      if (statement === INDEXED_WINDOW_PAGE || statement === INDEXED_RANGE_PAGE) await tx.executeSql("SET LOCAL cpu_operator_cost = 0.05");
      return (await tx.executeSql(statement, bound === undefined ? values : [...values, bound])).rows as SearchRow[];
    });
  // A ticket number is one index probe: straight to the whole search.
  if (ticketNumber === undefined) {
    // A later page looks at ranges of time below its cursor, a first page at the newest conversations.
    const [scan, indexed] = query.cursor ? [SCAN_RANGE_PAGE, INDEXED_RANGE_PAGE] : [SCAN_WINDOW_PAGE, INDEXED_WINDOW_PAGE];
    const passes: (readonly [string, number])[] = [...windows.scan.map((size) => [scan, size] as const), ...windows.indexed.map((size) => [indexed, size] as const)];
    for (let at = 0; at < passes.length; at++) {
      const [statement, size] = passes[at]!;
      const bound = ((await sql.executeSql(WINDOW_BOUND, [...filters, size, query.cursor?.at ?? null])).rows[0]?.at as Date | undefined) ?? "-infinity";
      const rows = await page(statement, bound);
      // A full page of sure items is the answer; so is any page of a window that held every conversation.
      if (rows.length > query.limit || bound === "-infinity") return toPage(rows, query.limit);
      // First pages only: below a cursor the matches a range found do not grow with its size (the
      // range starts where the last page's matches ended), so a wider range cost more for nothing.
      const wider = !query.cursor && at === windows.scan.length - 1 ? widerScan(size, rows.length, query.limit) : null;
      if (wider !== null) passes.splice(at + 1, 0, [scan, wider]);
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
    matched_in: row.matched_in,
    message_id: row.message_id,
  };
}

// The search's SQL (docs/search.md). Every text is matched as parley_search_vector(<text>) @@
// parley_search_query(q) — the very expressions of migration 20261127030000's GIN indexes. Not a
// prepared statement: planned with q's value each time, parley_search_query(q) folds into a
// constant and the planner sees how common its words are (a generic plan would guess). One item
// per conversation or ticket: its best match (a message before the visitor's name or email), the
// newest of those. Snippets are computed for the page's rows only, on the folded text with `<` `>`
// made `‹` `›` (so the text never fakes a marker).
//
// A first page of words looks at windows first (lib/search/search.ts): the newest conversations,
// whose bound $9 is the last activity just outside the window. Every hit newer than the bound is
// looked at, so the items newer than it ("sure") are exactly the whole search's; when they fill
// the page, that is the answer. SCAN_WINDOW_PAGE matches the few newest conversations' messages one
// by one, which common words need: their posting lists are a large share of the index.
// INDEXED_WINDOW_PAGE takes wider windows through the messages' GIN and created_at indexes
// together: rare words, whose every match the whole search would otherwise fetch. SEARCH_PAGE,
// over every match, answers the rest (later pages, ticket numbers, words too rare for any window).

const QUERY = "parley_search_query($1)";
const VISITOR_TEXT = `coalesce(c.visitor_name, '') || ' ' || coalesce(c.visitor_email, '')`;
const TICKET_TEXT = `t.subject || ' ' || t.body || ' ' || coalesce(t.name, '') || ' ' || t.email`;
const FILE_NAME_TEXT = `a.name || ' ' || translate(a.name, '-_.', '   ')`;
const HEADLINE_OPTIONS = "StartSel=<<, StopSel=>>, MaxWords=30, MinWords=12, ShortWord=2";

const SITE = "($3::text IS NULL OR c.site_id = $3)";
const STATUS = "($4::text IS NULL OR c.status = $4)";
const LABEL = "($5::text IS NULL OR EXISTS (SELECT 1 FROM conversation_labels cl WHERE cl.conversation_id = c.id AND cl.label_id = $5))";

type TimeCondition = (at: string) => string;
const ANY_TIME: TimeCondition = () => "true";
const NEWER_THAN_BOUND: TimeCondition = (at) => `${at} > $9`;

/**
 * The matches, one item per conversation or ticket. `messages`, `files` and `conversations`: where
 * the conversations' matches are looked for (the tables, or a window's rows); `since`: conditions
 * on a hit's time `at` (a window's bound), for the conversations' hits and the tickets'. A file
 * sent in a chat matches by its name, as its message (matched_at, message_id: the thread opens at it).
 */
const BEST = (messages: string, files: string, conversations: string, since: { chats: TimeCondition; tickets: TimeCondition } = { chats: ANY_TIME, tickets: ANY_TIME }) => `
    hits AS (
      SELECT 'conversation' AS type, m.conversation_id AS id, m.id AS message_id, m.created_at AS matched_at, m.body AS doc, 0 AS rank
        FROM ${messages} m
       WHERE parley_search_vector(m.body) @@ ${QUERY} AND m.author_type <> 'system' AND ${since.chats("m.created_at")}
      UNION ALL
      SELECT 'conversation', m.conversation_id, m.id, m.created_at, a.name, 0
        FROM ${files} a JOIN ${messages} m ON m.id = a.message_id
       WHERE parley_search_vector(${FILE_NAME_TEXT}) @@ ${QUERY} AND ${since.chats("m.created_at")}
      UNION ALL
      SELECT 'conversation', c.id, NULL, c.last_activity_at, ${VISITOR_TEXT}, 1
        FROM ${conversations} c
       WHERE parley_search_vector(${VISITOR_TEXT}) @@ ${QUERY} AND ${since.chats("c.last_activity_at")}
      UNION ALL
      SELECT 'ticket', t.id, NULL, t.created_at, ${TICKET_TEXT}, 0
        FROM tickets t
       WHERE (parley_search_vector(${TICKET_TEXT}) @@ ${QUERY} OR t.number = $2::int) AND ${since.tickets("t.created_at")}
      UNION ALL
      SELECT 'ticket', r.ticket_id, NULL, r.created_at, r.body, 0
        FROM ticket_replies r
       WHERE parley_search_vector(r.body) @@ ${QUERY} AND ${since.tickets("r.created_at")}
      UNION ALL
      SELECT 'ticket', a.ticket_id, NULL, a.created_at, a.name, 0
        FROM ticket_attachments a
       WHERE parley_search_vector(${FILE_NAME_TEXT}) @@ ${QUERY} AND ${since.tickets("a.created_at")}
    ),
    best AS (
      SELECT DISTINCT ON (type, id) * FROM hits
       ORDER BY type, id, rank, matched_at DESC, message_id DESC NULLS LAST
    )`;

/** The page of `best` (filters, cursor, limit) with titles and snippets; `sure`: which items may be in it. */
const PAGE = (sure: string) => `
    page AS (
      SELECT b.type, b.id, b.message_id, b.matched_at, b.doc,
             coalesce(c.site_id, t.site_id) AS site_id,
             CASE WHEN b.type = 'conversation' THEN coalesce(c.visitor_name, c.visitor_email, 'Visitor')
                  ELSE '#' || t.number || ' ' || t.subject END AS title
        FROM best b
        LEFT JOIN conversations c ON b.type = 'conversation' AND c.id = b.id
        LEFT JOIN tickets t ON b.type = 'ticket' AND t.id = b.id
       WHERE ($3::text IS NULL OR coalesce(c.site_id, t.site_id) = $3) AND ${STATUS} AND ${LABEL}
         AND ($6::timestamptz IS NULL OR (b.matched_at, b.id) < ($6, $7::text))
         AND ${sure}
       ORDER BY b.matched_at DESC, b.id DESC
       LIMIT $8
    )
    SELECT type, id, message_id, matched_at, site_id, title, doc, folded,
           ts_headline('english', folded, ${QUERY}, '${HEADLINE_OPTIONS}') AS headline
      FROM (SELECT page.*, translate(parley_fold(doc), '<>', '‹›') AS folded FROM page) AS shown
     ORDER BY matched_at DESC, id DESC`;

/**
 * A page of matches for q ($1; null: none by text) or ticket number $2 (null: none by number),
 * site $3, conversation status $4, label $5 (each null for any), after cursor ($6 time, $7 id;
 * null for the first page), at most $8 rows. Rows come newest match first.
 */
export const SEARCH_PAGE = `WITH ${BEST("messages", "message_attachments", "conversations")}, ${PAGE("true")}`;

/** SEARCH_PAGE's first page (cursor null) from the conversations active after $9: its sure items only. */
export const SCAN_WINDOW_PAGE = `
    WITH recent AS (
      SELECT c.id FROM conversations c WHERE ${SITE} AND ${STATUS} AND ${LABEL} AND c.last_activity_at > $9
    ),
    -- Materialized: the window's messages are matched one by one (a few thousand to_tsvector
    -- calls), never through the messages' GIN index, whose posting list for a common word is a
    -- large share of the table (a hash join over it costs what the window is there to avoid).
    recent_messages AS MATERIALIZED (
      SELECT m.id, m.conversation_id, m.created_at, m.body, m.author_type FROM recent w JOIN messages m ON m.conversation_id = w.id
    ),
    recent_files AS MATERIALIZED (
      SELECT a.message_id, a.name FROM recent w JOIN message_attachments a ON a.conversation_id = w.id WHERE a.message_id IS NOT NULL
    ),
    recent_conversations AS MATERIALIZED (
      SELECT c.id, c.visitor_name, c.visitor_email, c.last_activity_at FROM recent w JOIN conversations c ON c.id = w.id
    ),
    ${BEST("recent_messages", "recent_files", "recent_conversations", { chats: ANY_TIME, tickets: NEWER_THAN_BOUND })}, ${PAGE("b.matched_at > $9")}`;

/**
 * SEARCH_PAGE's first page (cursor null) from the hits newer than $9: its sure items only. A
 * conversation found there by the visitor's name alone may have an older matching message, its
 * true best match: it is not sure.
 */
export const INDEXED_WINDOW_PAGE = `WITH ${BEST("messages", "message_attachments", "conversations", { chats: NEWER_THAN_BOUND, tickets: NEWER_THAN_BOUND })},
    ${PAGE(`b.matched_at > $9 AND (b.rank = 0 OR NOT EXISTS (
      SELECT 1 FROM messages m WHERE m.conversation_id = b.id AND m.author_type <> 'system' AND parley_search_vector(m.body) @@ ${QUERY}
      UNION ALL
      SELECT 1 FROM message_attachments a WHERE a.conversation_id = b.id AND a.message_id IS NOT NULL AND parley_search_vector(${FILE_NAME_TEXT}) @@ ${QUERY}))`)}`;

/**
 * The bound of the window of the newest $4 conversations of site $1, status $2, label $3: the
 * last activity of the next one (no row when there are no more).
 */
export const WINDOW_BOUND = `
    SELECT c.last_activity_at AS at FROM conversations c
     WHERE ($1::text IS NULL OR c.site_id = $1) AND ($2::text IS NULL OR c.status = $2)
       AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM conversation_labels cl WHERE cl.conversation_id = c.id AND cl.label_id = $3))
     ORDER BY c.last_activity_at DESC, c.id DESC
     OFFSET $4 LIMIT 1`;

export interface SearchRow {
  type: "conversation" | "ticket";
  id: string;
  message_id: string | null;
  matched_at: Date;
  site_id: string;
  title: string;
  doc: string;
  /** parley_fold(doc) with `<` `>` as `‹` `›`. */
  folded: string;
  /** Null when the query has no words (a bare `#123`). */
  headline: string | null;
}

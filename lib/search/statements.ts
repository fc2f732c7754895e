import type { SearchMatchedIn } from "../contracts/search";
import { visibleConversationSql, visibleTicketSql } from "../teams/visibility";

// The search's SQL (docs/search.md). Every text is matched as parley_search_vector(<text>) @@
// parley_search_query(q) — the very expressions of migration 20261127030000's GIN indexes. Not a
// prepared statement: planned with q's value each time, parley_search_query(q) folds into a
// constant and the planner sees how common its words are (a generic plan would guess). One item
// per conversation or ticket: its best match (a message before the visitor's name or email), the
// newest of those. Snippets are computed for the page's rows only, on the folded text with `<` `>`
// made `‹` `›` (so the text never fakes a marker).
//
// A first page of words looks at windows first (lib/search/search.ts): the newest conversations,
// whose bound $11 is the last activity just outside the window. Every hit newer than the bound is
// looked at, so the items newer than it ("sure") are exactly the whole search's; when they fill
// the page, that is the answer. SCAN_WINDOW_PAGE matches the few newest conversations' messages one
// by one, which common words need: their posting lists are a large share of the index.
// INDEXED_WINDOW_PAGE takes wider windows through the messages' GIN and created_at indexes
// together: rare words, whose every match the whole search would otherwise fetch. SEARCH_PAGE,
// over every match, answers the rest (ticket numbers, words too rare for any window).
//
// A later page (cursor $6, $7) looks at ranges of time instead: the hits between a bound $11 and the
// cursor's time, by scan (SCAN_RANGE_PAGE: the range's messages one by one) or through the indexes
// (INDEXED_RANGE_PAGE). A conversation's best match may lie outside the range (a better rank at any
// time, or the same rank after the cursor: then it was on an earlier page), so an item of the range
// is sure only when no such hit exists (BEST_OVERALL).

const QUERY = "parley_search_query($1)";
/** The name the inbox shows (given, else generated: migration 20261205000000) and the email. */
const VISITOR_NAME = `coalesce(c.visitor_name, parley_generated_name(coalesce(c.browser_visitor_id, c.visitor_id)))`;
const VISITOR_TEXT = `${VISITOR_NAME} || ' ' || coalesce(c.visitor_email, '')`;
const TICKET_TEXT = `t.subject || ' ' || t.body || ' ' || coalesce(t.name, '') || ' ' || t.email`;
const FILE_NAME_TEXT = `a.name || ' ' || translate(a.name, '-_.', '   ')`;
const HEADLINE_OPTIONS = "StartSel=<<, StopSel=>>, MaxWords=30, MinWords=12, ShortWord=2";

/** Only what member $9 (role $10) may see (docs/teams.md). */
const VISIBLE = `CASE WHEN b.type = 'conversation' THEN ${visibleConversationSql({ row: "c", member: "$9", role: "$10" })}
                      ELSE ${visibleTicketSql({ row: "t", member: "$9", role: "$10" })} END`;

const SITE = "($3::text IS NULL OR c.site_id = $3)";
const STATUS = "($4::text IS NULL OR c.status = $4)";
const LABEL = "($5::text IS NULL OR EXISTS (SELECT 1 FROM conversation_labels cl WHERE cl.conversation_id = c.id AND cl.label_id = $5))";

// A conversation's best match: a public message or file (0), else a note (so a note never hides the
// visitor's own matching message), else the visitor's name or email.
const NOTE_RANK = 1;
const VISITOR_RANK = 2;

type TimeCondition = (at: string) => string;
const ANY_TIME: TimeCondition = () => "true";
const NEWER_THAN_BOUND: TimeCondition = (at) => `${at} > $11`;
/** A later page's range: after the bound $11, not after the cursor's time $6. */
const IN_RANGE: TimeCondition = (at) => `${at} > $11 AND ${at} <= $6::timestamptz`;

/**
 * The matches, one item per conversation or ticket. `messages`, `files` and `conversations`: where
 * the conversations' matches are looked for (the tables, or a window's rows); `since`: conditions
 * on a hit's time `at` (a window's bound), for the conversations' hits and the tickets'. A file
 * sent in a chat matches by its name, as its message (matched_at, message_id: the thread opens at it).
 */
const BEST = (messages: string, files: string, conversations: string, since: { chats: TimeCondition; tickets: TimeCondition } = { chats: ANY_TIME, tickets: ANY_TIME }) => `
    hits AS (
      SELECT 'conversation' AS type, m.conversation_id AS id, m.id AS message_id, m.created_at AS matched_at, m.body AS doc,
             CASE WHEN m.kind = 'note' THEN ${NOTE_RANK} ELSE 0 END AS rank, CASE WHEN m.kind = 'note' THEN 'note' ELSE 'message' END AS matched_in
        FROM ${messages} m
       WHERE parley_search_vector(m.body) @@ ${QUERY} AND m.author_type <> 'system' AND ${since.chats("m.created_at")}
      UNION ALL
      SELECT 'conversation', m.conversation_id, m.id, m.created_at, a.name, 0, 'file'
        FROM ${files} a JOIN ${messages} m ON m.id = a.message_id
       WHERE parley_search_vector(${FILE_NAME_TEXT}) @@ ${QUERY} AND ${since.chats("m.created_at")}
      UNION ALL
      SELECT 'conversation', c.id, NULL, c.last_activity_at, ${VISITOR_TEXT}, ${VISITOR_RANK}, 'visitor'
        FROM ${conversations} c
       WHERE parley_search_vector(${VISITOR_TEXT}) @@ ${QUERY} AND ${since.chats("c.last_activity_at")}
      UNION ALL
      SELECT 'ticket', t.id, NULL, t.created_at, ${TICKET_TEXT}, 0, 'ticket'
        FROM tickets t
       WHERE (parley_search_vector(${TICKET_TEXT}) @@ ${QUERY} OR t.number = $2::int) AND ${since.tickets("t.created_at")}
      UNION ALL
      SELECT 'ticket', r.ticket_id, NULL, r.created_at, r.body, 0, 'ticket'
        FROM ticket_replies r
       WHERE parley_search_vector(r.body) @@ ${QUERY} AND ${since.tickets("r.created_at")}
      UNION ALL
      SELECT 'ticket', a.ticket_id, NULL, a.created_at, a.name, 0, 'file'
        FROM ticket_attachments a
       WHERE parley_search_vector(${FILE_NAME_TEXT}) @@ ${QUERY} AND ${since.tickets("a.created_at")}
    ),
    best AS (
      SELECT DISTINCT ON (type, id) * FROM hits
       ORDER BY type, id, rank, matched_at DESC, message_id DESC NULLS LAST
    )`;

const RANK_OF_MESSAGE = "CASE WHEN m.kind = 'note' THEN " + NOTE_RANK + " ELSE 0 END";

/**
 * For a later page's range (after $11, up to the cursor's time $6): the range's best hit `b` of a
 * conversation or ticket is its best match overall, so no hit of a better rank exists at any time,
 * nor one of the same rank after $6. A conversation last active by $6 has no hit after it; a
 * visitor's name is matched at the last activity; a ticket's hits all rank alike, its text first.
 */
const BEST_OVERALL = `CASE WHEN b.type = 'ticket' THEN NOT EXISTS (
        SELECT 1 FROM ticket_replies r WHERE r.ticket_id = b.id AND r.created_at > $6::timestamptz AND parley_search_vector(r.body) @@ ${QUERY}
        UNION ALL
        SELECT 1 FROM ticket_attachments a WHERE a.ticket_id = b.id AND a.created_at > $6::timestamptz AND parley_search_vector(${FILE_NAME_TEXT}) @@ ${QUERY})
      WHEN b.rank = 0 AND c.last_activity_at <= $6::timestamptz THEN true
      ELSE NOT EXISTS (
        SELECT 1 FROM messages m WHERE m.conversation_id = b.id AND m.author_type <> 'system'
           AND (${RANK_OF_MESSAGE} < b.rank OR (${RANK_OF_MESSAGE} = b.rank AND m.created_at > $6::timestamptz))
           AND parley_search_vector(m.body) @@ ${QUERY}
        UNION ALL
        SELECT 1 FROM message_attachments a JOIN messages m ON m.id = a.message_id WHERE a.conversation_id = b.id
           AND (b.rank > 0 OR m.created_at > $6::timestamptz) AND parley_search_vector(${FILE_NAME_TEXT}) @@ ${QUERY}) END`;

/** The page of `best` (filters, cursor, limit) with titles and snippets; `sure`: which items may be in it. */
const PAGE = (sure: string) => `
    page AS (
      SELECT b.type, b.id, b.message_id, b.matched_at, b.doc, b.matched_in,
             coalesce(c.site_id, t.site_id) AS site_id,
             CASE WHEN b.type = 'conversation' THEN ${VISITOR_NAME}
                  ELSE '#' || t.number || ' ' || t.subject END AS title
        FROM best b
        LEFT JOIN conversations c ON b.type = 'conversation' AND c.id = b.id
        LEFT JOIN tickets t ON b.type = 'ticket' AND t.id = b.id
       WHERE ($3::text IS NULL OR coalesce(c.site_id, t.site_id) = $3) AND ${STATUS} AND ${LABEL}
         AND ($6::timestamptz IS NULL OR (b.matched_at, b.id) < ($6, $7::text))
         AND ${VISIBLE}
         AND ${sure}
       ORDER BY b.matched_at DESC, b.id DESC
       LIMIT $8
    )
    SELECT type, id, message_id, matched_at, matched_in, site_id, title, doc, folded,
           ts_headline('english', folded, ${QUERY}, '${HEADLINE_OPTIONS}') AS headline
      FROM (SELECT page.*, translate(parley_fold(doc), '<>', '‹›') AS folded FROM page) AS shown
     ORDER BY matched_at DESC, id DESC`;

/**
 * A page of matches for q ($1; null: none by text) or ticket number $2 (null: none by number),
 * site $3, conversation status $4, label $5 (each null for any), after cursor ($6 time, $7 id;
 * null for the first page), at most $8 rows, that member $9 (role $10) may see. Rows come newest match first.
 */
export const SEARCH_PAGE = `WITH ${BEST("messages", "message_attachments", "conversations")}, ${PAGE("true")}`;

/** SEARCH_PAGE's first page (cursor null) from the conversations active after $11: its sure items only. */
export const SCAN_WINDOW_PAGE = `
    WITH recent AS (
      SELECT c.id FROM conversations c WHERE ${SITE} AND ${STATUS} AND ${LABEL} AND c.last_activity_at > $11
    ),
    -- Materialized: the window's messages are matched one by one (a few thousand to_tsvector
    -- calls), never through the messages' GIN index, whose posting list for a common word is a
    -- large share of the table (a hash join over it costs what the window is there to avoid).
    recent_messages AS MATERIALIZED (
      SELECT m.id, m.conversation_id, m.created_at, m.body, m.author_type, m.kind FROM recent w JOIN messages m ON m.conversation_id = w.id
    ),
    recent_files AS MATERIALIZED (
      SELECT a.message_id, a.name FROM recent w JOIN message_attachments a ON a.conversation_id = w.id WHERE a.message_id IS NOT NULL
    ),
    recent_conversations AS MATERIALIZED (
      SELECT c.id, c.visitor_name, c.visitor_email, c.browser_visitor_id, c.visitor_id, c.last_activity_at FROM recent w JOIN conversations c ON c.id = w.id
    ),
    ${BEST("recent_messages", "recent_files", "recent_conversations", { chats: ANY_TIME, tickets: NEWER_THAN_BOUND })}, ${PAGE("b.matched_at > $11")}`;

/**
 * SEARCH_PAGE's first page (cursor null) from the hits newer than $11: its sure items only. A
 * conversation found there by a note or the visitor's name alone may have an older match of a
 * better rank (a public message or file; for a name, a note too), its true best match: not sure.
 */
export const INDEXED_WINDOW_PAGE = `WITH ${BEST("messages", "message_attachments", "conversations", { chats: NEWER_THAN_BOUND, tickets: NEWER_THAN_BOUND })},
    ${PAGE(`b.matched_at > $11 AND (b.rank = 0 OR NOT EXISTS (
      SELECT 1 FROM messages m WHERE m.conversation_id = b.id AND m.author_type <> 'system' AND (m.kind <> 'note' OR b.rank = ${VISITOR_RANK})
         AND parley_search_vector(m.body) @@ ${QUERY}
      UNION ALL
      SELECT 1 FROM message_attachments a WHERE a.conversation_id = b.id AND a.message_id IS NOT NULL AND parley_search_vector(${FILE_NAME_TEXT}) @@ ${QUERY}))`)}`;

/**
 * A later page's items from the hits between $11 and the cursor's time $6 that are sure: that hit
 * is the item's best match (BEST_OVERALL). The range's messages are matched one by one, as the
 * scan window's (a common word's posting list is a large share of the index); the conversation
 * filters are checked first, so other conversations' messages cost a probe, not a to_tsvector.
 */
export const SCAN_RANGE_PAGE = `
    WITH range_messages AS MATERIALIZED (
      SELECT m.id, m.conversation_id, m.created_at, m.body, m.author_type, m.kind
        FROM messages m JOIN conversations c ON c.id = m.conversation_id
       WHERE m.created_at > $11 AND m.created_at <= $6::timestamptz AND ${SITE} AND ${STATUS} AND ${LABEL}
    ),
    range_files AS MATERIALIZED (
      SELECT a.message_id, a.name FROM range_messages m JOIN message_attachments a ON a.message_id = m.id
    ),
    range_conversations AS MATERIALIZED (
      SELECT c.id, c.visitor_name, c.visitor_email, c.browser_visitor_id, c.visitor_id, c.last_activity_at FROM conversations c
       WHERE c.last_activity_at > $11 AND c.last_activity_at <= $6::timestamptz AND ${SITE} AND ${STATUS} AND ${LABEL}
    ),
    ${BEST("range_messages", "range_files", "range_conversations", { chats: ANY_TIME, tickets: IN_RANGE })}, ${PAGE(`b.matched_at > $11 AND ${BEST_OVERALL}`)}`;

/** SCAN_RANGE_PAGE through the messages' GIN and created_at indexes together (rare words). */
export const INDEXED_RANGE_PAGE = `WITH ${BEST("messages", "message_attachments", "conversations", { chats: IN_RANGE, tickets: IN_RANGE })},
    ${PAGE(`b.matched_at > $11 AND ${BEST_OVERALL}`)}`;

/**
 * The bound of the window of the newest $4 conversations of site $1, status $2, label $3 that were
 * last active before $5 (a later page's cursor time; null: any): the last activity of the next one
 * (no row when there are no more).
 */
export const WINDOW_BOUND = `
    SELECT c.last_activity_at AS at FROM conversations c
     WHERE ($1::text IS NULL OR c.site_id = $1) AND ($2::text IS NULL OR c.status = $2)
       AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM conversation_labels cl WHERE cl.conversation_id = c.id AND cl.label_id = $3))
       AND ($5::timestamptz IS NULL OR c.last_activity_at < $5)
     ORDER BY c.last_activity_at DESC, c.id DESC
     OFFSET $4 LIMIT 1`;

export interface SearchRow {
  type: "conversation" | "ticket";
  id: string;
  message_id: string | null;
  matched_at: Date;
  matched_in: SearchMatchedIn;
  site_id: string;
  title: string;
  doc: string;
  /** parley_fold(doc) with `<` `>` as `‹` `›`. */
  folded: string;
  /** Null when the query has no words (a bare `#123`). */
  headline: string | null;
}

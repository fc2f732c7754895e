// Article search (docs/answers.md): the inbox search's own matching (migration 20261127030000):
// parley_search_vector(title || ' ' || body) @@ parley_search_query(q), so folding, stemming,
// web-search syntax and the last word as a prefix are the same as the inbox's. The vector is the
// stored column search_vector (migration 20261210000300, GIN-indexed), not computed per search:
// ranking re-parsed every matching body (docs/performance.md, "Help center"). The query is written
// in the match itself (not only through the CTE) so the planner sees it and uses the index.
// Ranked by ts_rank_cd normalised by length (32: rank / (rank + 1), so 0..1), then views. Headlines are computed for the page's rows only, on the folded body with
// `<` `>` made `‹` `›` (lib/search/snippet.ts puts the original characters back).

const QUERY = "parley_search_query($1)";
const HEADLINE_OPTIONS = "StartSel=<<, StopSel=>>, MaxWords=30, MinWords=12, ShortWord=2";

/**
 * Matches of q $1 among the articles of site $2, locale $3 and status $4 (each null for any), the best
 * $5. `coverage`: the share of the query's distinct lexemes found in the article (the bot's
 * threshold, lib/articles/answer.ts).
 */
export const SEARCH_ARTICLES = `
    WITH q AS (SELECT ${QUERY} AS query),
    matched AS (
      SELECT a.id, ts_rank_cd(a.search_vector, ${QUERY}, 32) AS rank
        FROM articles a
       WHERE a.search_vector @@ ${QUERY}
         AND ($2::text IS NULL OR a.site_id = $2) AND ($3::text IS NULL OR a.locale = $3) AND ($4::text IS NULL OR a.status = $4)
       ORDER BY rank DESC, a.views DESC, a.id
       LIMIT $5
    )
    SELECT m.id, m.rank, a.site_id, a.title, a.locale, a.slug, a.body AS doc, f.folded,
           ts_headline('english', f.folded, q.query, '${HEADLINE_OPTIONS}') AS headline
      FROM matched m JOIN articles a ON a.id = m.id
      CROSS JOIN q
      CROSS JOIN LATERAL (SELECT translate(parley_fold(a.body), '<>', '‹›') AS folded) f
     ORDER BY m.rank DESC, a.views DESC, a.id`;

export interface ArticleSearchRow {
  id: string;
  rank: number;
  site_id: string;
  title: string;
  locale: string;
  slug: string;
  doc: string;
  folded: string;
  headline: string | null;
}

/** Published article $1 of site $2: its view counted (the widget's read); no row when there is none. */
export const COUNT_VIEW = `UPDATE articles SET views = views + 1 WHERE id = $1 AND site_id = $2 AND status = 'published'`;

// Published help center articles for the article benches (bench/articles.ts in-process, and the
// widget's suggestions over HTTP in `npm run bench`), written straight into a migrated database in
// one statement per batch: each article has a topic (in its title, its collection and about one
// word in 25 of its body; another topic now and then), a body of 80..300 words drawn from words
// people write to support (so a topic matches some 15 % of the articles, generic words nearly all,
// rare words about one in two hundred), one locale, a spread of views (the empty query's order).

/** Runs one statement: a pg.Client's or PGlite's query, or the service's executeSql. */
export type RunSql = (text: string, values?: unknown[]) => Promise<unknown>;

export const TOPICS = ["shipping", "refund", "password", "invoice", "account", "delivery", "payment", "returns", "warranty", "subscription"];
const WORDS = ["order", "please", "days", "business", "track", "parcel", "email", "settings", "card", "change", "cancel", "address", "customs", "label", "exchange", "size", "colour", "login", "reset", "link", "billing", "plan", "upgrade", "store", "item", "damaged", "missing", "courier", "international", "fee", "receipt", "confirm", "profile", "secure", "update", "within", "working", "support", "team", "contact"];
/** Words that appear in about one article in two hundred. */
export const VERBS = ["track", "cancel", "change", "reset", "update"];
export const RARE = ["zeppelin", "quokka", "marmalade", "harpsichord", "obsidian"];

const BATCH = 2_000;

/** `(SELECT …)` of `low..high` words, different for each row `s` (the `0 * s` keeps it per row). */
const words = (low: number, high: number) => `(SELECT string_agg(CASE WHEN r < 0.0001 THEN (ARRAY['${RARE.join("','")}'])[1 + floor(random() * ${RARE.length})::int]
                                     WHEN r < 0.04 THEN (ARRAY['${TOPICS.join("','")}'])[1 + s % ${TOPICS.length}]
                                     WHEN r < 0.042 THEN (ARRAY['${TOPICS.join("','")}'])[1 + floor(random() * ${TOPICS.length})::int]
                                     ELSE (ARRAY['${WORDS.join("','")}'])[1 + floor(random() * ${WORDS.length})::int] END, ' ')
                FROM (SELECT random() AS r FROM generate_series(1, ${low} + floor(random() * ${high - low + 1})::int + 0 * s)) picked)`;

/** `count` published articles of `siteId`, ids `ba<n>`, slugs `bench-<n>`; answers when they are in. */
export async function seedArticles(run: RunSql, siteId: string, count: number): Promise<void> {
  for (let from = 0; from < count; from += BATCH) {
    const to = Math.min(count, from + BATCH) - 1;
    await run(
      `INSERT INTO articles (id, site_id, title, body, locale, slug, collection, status, views, published_at)
       SELECT 'ba' || s, $1, initcap((ARRAY['${TOPICS.join("','")}'])[1 + s % ${TOPICS.length}]) || ': ' || ${words(2, 5)},
              '## ' || ${words(3, 6)} || E'\\n\\n' || ${words(40, 150)} || E'\\n\\n- ' || ${words(5, 12)} || E'\\n- ' || ${words(5, 12)} || E'\\n\\n' || ${words(30, 130)},
              'en', 'bench-' || s, (ARRAY['${TOPICS.join("','")}'])[1 + s % ${TOPICS.length}], 'published', floor(random() * 5000)::int, now()
         FROM generate_series($2::int, $3::int) AS s`,
      [siteId, from, to],
    );
  }
}

/** What a visitor types, as the widget sends it while they type: whole words, a word being typed (a prefix), a question, a word no article has. */
export const TYPED: [label: string, q: (i: number) => string][] = [
  ["one common word", (i) => TOPICS[i % TOPICS.length]!],
  ["a word being typed", (i) => TOPICS[i % TOPICS.length]!.slice(0, 4)],
  ["a question", (i) => `how do I ${VERBS[i % VERBS.length]} my ${TOPICS[(i * 3) % TOPICS.length]}`],
  ["a rare word", (i) => RARE[i % RARE.length]!],
  ["nothing matches", (i) => `xylophone${i % 7}`],
];

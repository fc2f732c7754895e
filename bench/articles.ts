// npm run bench:articles — the help center's article search at scale, in-process (docs/performance.md,
// "Help center"; issue 40: p99 ≤ 20 ms at 10,000 published articles). Seeds N published articles
// (bench/article-seed.ts) on one site with its help center on, then times the widget's suggestion
// service (lib/articles/widget-articles.ts: what GET /api/v1/chat/widget/{siteID}/articles runs,
// three results) for what visitors type, and the empty query (the most viewed): p50/p99, no HTTP.
// The same over HTTP with concurrent visitors is the "suggestions" part of `npm run bench`.
//
//   npm run bench:articles -- --articles 10000                     (embedded: PGlite in memory)
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/parley_bench_articles npm run bench:articles -- --articles 10000
//
// Flags (or ARTICLES_BENCH_ARTICLES, ARTICLES_BENCH_SAMPLES): --articles (default 10,000), --samples per query (default 200).
import { parseArgs } from "node:util";
import { closeDatabase, sqlExecutor } from "../lib/db/client";
import { widgetArticlesQuery } from "../lib/contracts/articles";
import { suggestArticles } from "../lib/articles/widget-articles";
import { seedArticles, TYPED } from "./article-seed";
import { sampled, timed } from "./stats";

const { values } = parseArgs({ options: { articles: { type: "string" }, samples: { type: "string" } } });
const articles = Number(values.articles ?? process.env.ARTICLES_BENCH_ARTICLES ?? 10_000);
const samples = Number(values.samples ?? process.env.ARTICLES_BENCH_SAMPLES ?? 200);
if (!process.env.DATABASE_URL) process.env.DATA_DIR ??= "memory://";
process.env.ADMIN_TOKEN ??= "bench-admin-token-0123456789abcdef";
process.env.RATE_LIMITS = "off";
process.env.LOG_LEVEL ??= "warn";
const SITE = "bench-articles";
/** The widget asks for three while the visitor types. */
const SUGGESTED = 3;
const TARGET_P99_MS = 20;

async function main(): Promise<void> {
  const sql = await sqlExecutor();
  const run = (text: string, params: unknown[] = []) => sql.executeSql(text, params);
  await run(`INSERT INTO inboxes (id, name) VALUES ('bench-articles-inbox', 'Bench') ON CONFLICT DO NOTHING`);
  await run(`INSERT INTO sites (id, name, inbox_id, origins, help_center_enabled) VALUES ($1, 'Bench', 'bench-articles-inbox', ARRAY['https://bench.example'], true) ON CONFLICT DO NOTHING`, [SITE]);
  await run(`DELETE FROM articles WHERE site_id = $1`, [SITE]);
  const [, seedMs] = await timed(() => seedArticles(run, SITE, articles));
  await run("ANALYZE articles");
  console.log(`${articles.toLocaleString("en")} published articles seeded in ${(seedMs / 1000).toFixed(1)} s (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`);
  const worst: number[] = [];
  const site = { id: SITE, helpCenterEnabled: true };
  const measure = async (label: string, q: (i: number) => string) => {
    const { p50, p99 } = await sampled((i) => suggestArticles(site, widgetArticlesQuery.parse({ q: q(i), limit: String(SUGGESTED) })), samples);
    const found = (await suggestArticles(site, widgetArticlesQuery.parse({ q: q(1), limit: String(SUGGESTED) }))).items.length;
    worst.push(p99);
    console.log(`suggestions, ${label} ("${q(1)}": ${found} found): p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
  };
  for (const [label, q] of TYPED) await measure(label, q);
  await measure("empty (the most viewed)", () => "");
  const p99 = Math.max(...worst);
  console.log(`worst p99 ${p99.toFixed(1)} ms at ${articles.toLocaleString("en")} articles (target ≤ ${TARGET_P99_MS} ms at 10,000): ${p99 <= TARGET_P99_MS ? "met" : "NOT met"}`);
  await closeDatabase();
}

await main();

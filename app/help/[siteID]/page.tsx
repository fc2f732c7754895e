import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AppError } from "@/lib/core/errors";
import { helpCenterHome, searchPublished, type ArticleLink } from "@/lib/articles/help-center";
import { articleQuery } from "@/lib/contracts/articles";
import { HelpFrame, Snippet } from "../help-frame";
import { decodeSegment } from "../help-params";
import styles from "../help.module.css";

// GET /help/{siteID}: collections, popular articles and search (?q=), server-rendered, no JavaScript needed.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ siteID: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function home(params: Params["params"]) {
  const siteId = decodeSegment((await params).siteID);
  if (siteId === null) notFound();
  try {
    return await helpCenterHome(siteId);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { site, url } = await home(params);
  return { title: site.title, alternates: { canonical: url } };
}

function ArticleList({ articles, showLocale }: { articles: ArticleLink[]; showLocale: boolean }) {
  return (
    <ul className={styles.list}>
      {articles.map((article) => (
        <li key={article.id} lang={article.locale}>
          <a href={article.url}>{article.title}</a>
          {showLocale ? <span className={styles.meta}> · {article.locale}</span> : null}
          {article.snippet ? <Snippet text={article.snippet} /> : null}
        </li>
      ))}
    </ul>
  );
}

export default async function HelpCenterHome({ params, searchParams }: Params) {
  const { site, collections, popular } = await home(params);
  const raw = (await searchParams).q;
  const parsed = articleQuery.safeParse(typeof raw === "string" ? raw : "");
  const q = parsed.success ? parsed.data : undefined;
  const results = q === undefined ? null : await searchPublished(site.id, q);
  const locales = new Set(collections.flatMap((collection) => collection.articles.map((article) => article.locale)));
  const showLocale = locales.size > 1;
  // Popular picks out a few; when the collections below hold no more than those, it would only repeat them.
  const articleCount = collections.reduce((sum, collection) => sum + collection.articles.length, 0);
  const showPopular = popular.length > 0 && articleCount > popular.length;
  return (
    <HelpFrame site={site} query={q}>
      {results !== null ? (
        <section aria-labelledby="results-title">
          <h1 id="results-title">Results for “{q}”</h1>
          {results.length ? <ArticleList articles={results} showLocale={showLocale} /> : <p>No article matches. Try other words.</p>}
        </section>
      ) : (
        <h1>How can we help?</h1>
      )}
      {showPopular ? (
        <section aria-labelledby="popular-title">
          <h2 id="popular-title">Popular articles</h2>
          <ArticleList articles={popular} showLocale={showLocale} />
        </section>
      ) : null}
      {articleCount === 0 ? <p>No articles yet.</p> : null}
      {collections.map((collection) => (
        <section key={collection.name ?? ""} aria-label={collection.name ?? "More articles"}>
          <h2>{collection.name ?? "More articles"}</h2>
          <ArticleList articles={collection.articles} showLocale={showLocale} />
        </section>
      ))}
    </HelpFrame>
  );
}

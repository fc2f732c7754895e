import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AppError } from "@/lib/core/errors";
import { helpCenterArticle } from "@/lib/articles/help-center";
import { HelpFrame } from "../../../help-frame";
import { decodeSegment } from "../../../help-params";
import styles from "../../../help.module.css";

// GET /help/{siteID}/{locale}/{slug}: one published article, server-rendered through the one
// Markdown renderer (lib/articles/render-markdown.ts), with its canonical URL and hreflang alternates.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ siteID: string; locale: string; slug: string }> };

async function page(params: Params["params"]) {
  const raw = await params;
  const [siteId, locale, slug] = [raw.siteID, raw.locale, raw.slug].map(decodeSegment);
  if (!siteId || !locale || !slug) notFound();
  try {
    return await helpCenterArticle(siteId, locale, slug);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { site, article, alternates } = await page(params);
  return {
    title: `${article.title} — ${site.title}`,
    alternates: {
      canonical: article.url,
      languages: Object.fromEntries([[article.locale, article.url], ...alternates.map((other) => [other.locale, other.url])]),
    },
  };
}

export default async function HelpArticle({ params }: Params) {
  const { site, article, alternates } = await page(params);
  return (
    <HelpFrame site={site}>
      <article lang={article.locale} className={styles.article}>
        {article.collection ? <p className={styles.meta}>{article.collection}</p> : null}
        <h1>{article.title}</h1>
        {/* Rendered by the one sanitizing renderer: no raw HTML, checked URLs only. */}
        <div dangerouslySetInnerHTML={{ __html: article.html }} />
        <p className={styles.meta}>Updated {article.updatedAt.toISOString().slice(0, 10)}</p>
      </article>
      {alternates.length ? (
        <nav aria-label="Other languages">
          <p className={styles.meta}>
            Also in:{" "}
            {alternates.map((other, index) => (
              <span key={other.id}>
                {index ? ", " : ""}
                <a href={other.url} hrefLang={other.locale} lang={other.locale}>
                  {other.locale}
                </a>
              </span>
            ))}
          </p>
        </nav>
      ) : null}
    </HelpFrame>
  );
}

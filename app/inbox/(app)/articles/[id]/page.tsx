import Link from "next/link";
import { notFound } from "next/navigation";
import { renderMarkdown } from "@/lib/articles/render-markdown";
import { articleCollections, readArticle } from "@/lib/articles/views";
import { AppError } from "@/lib/core/errors";
import type { WireArticle } from "@/lib/contracts/articles";
import styles from "../../../inbox.module.css";
import { ArticleEditor } from "../../../_components/articles/article-editor";
import { LocalTime } from "../../../_components/ui/local-time";
import { requireStaffPage } from "../../../_components/shared/staff-session";

async function read(id: string): Promise<WireArticle> {
  try {
    return await readArticle(id);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

export default async function ArticlePage({ params }: { params: Promise<{ id: string }> }) {
  const { member } = await requireStaffPage();
  const article = await read(decodeURIComponent((await params).id));
  return (
    <main id="main" className={styles.wide}>
      <p>
        <Link href="/inbox/articles">← Articles</Link>
      </p>
      <h1 dir="auto">{article.title}</h1>
      <p className={styles.meta} data-testid="article-status">
        {article.status === "published" ? (
          <>
            <span className={styles.statusPublished}>Published</span> at{" "}
            <a href={article.url} target="_blank" rel="noopener noreferrer">
              {article.url}
            </a>
          </>
        ) : (
          "Draft: not public"
        )}
        {" · "}changed <LocalTime iso={article.updated_at} full /> · {article.views} views · {article.helpful} helpful, {article.not_helpful} not
      </p>
      {member.role === "owner" ? (
        <ArticleEditor key={article.updated_at} article={article} sites={[]} collections={await articleCollections()} />
      ) : (
        <div className={`${styles.articlePreview} ${styles.articleProse}`} dangerouslySetInnerHTML={{ __html: renderMarkdown(article.body) }} />
      )}
    </main>
  );
}

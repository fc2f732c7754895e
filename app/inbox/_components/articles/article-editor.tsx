"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState, type FormEvent } from "react";
import { renderMarkdown } from "@/lib/articles/render-markdown";
import type { WireArticle } from "@/lib/contracts/articles";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";
import { Feedback, type SaveStatus } from "../ui/feedback";

// The article editor (owners; docs/answers.md, "Writing articles"): Markdown on the left, the live
// preview on the right through the one renderer every article goes through (lib/articles/
// render-markdown.ts), so what the preview shows is what the help center and the widget show.
// Saving keeps the status; Publish and Unpublish change only the status.

interface Props {
  article: WireArticle | null;
  sites: { id: string; name: string }[];
  collections: string[];
}

function fieldsOf(form: HTMLFormElement) {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "").trim();
  return {
    title: text("title"),
    body: String(data.get("body") ?? ""),
    ...(text("slug") ? { slug: text("slug") } : {}),
    ...(text("locale") ? { locale: text("locale") } : {}),
    collection: text("collection") || null,
  };
}

export function ArticleEditor({ article, sites, collections }: Props) {
  const router = useRouter();
  const [body, setBody] = useState(article?.body ?? "");
  const [status, setStatus] = useState<SaveStatus>({});
  const preview = useMemo(() => renderMarkdown(body), [body]);
  const path = article ? `/api/v1/inbox/articles/${encodeURIComponent(article.id)}` : "/api/v1/inbox/articles";

  const save = async (form: HTMLFormElement, change: { status?: "draft" | "published" }) => {
    setStatus({});
    const fields = fieldsOf(form);
    const outcome = article
      ? await inboxApi<WireArticle>("PATCH", path, { ...fields, ...change })
      : await inboxApi<WireArticle>("POST", path, { site_id: String(new FormData(form).get("site_id") ?? ""), ...fields, ...change });
    if (!outcome.ok) return setStatus({ error: describeFailure(outcome) });
    setStatus({ done: change.status === "published" ? "Published." : change.status === "draft" ? "Unpublished: a draft again." : "Saved." });
    if (!article) router.push(`/inbox/articles/${encodeURIComponent(outcome.result.id)}`);
    else router.refresh();
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const chosen = submitter?.value;
    const change: { status?: "draft" | "published" } = chosen === "published" || chosen === "draft" ? { status: chosen } : article ? {} : { status: "draft" };
    void save(event.currentTarget, change);
  };
  const remove = async () => {
    if (!article || !window.confirm(`Delete “${article.title}”? It leaves the help center at once.`)) return;
    const outcome = await inboxApi("DELETE", path);
    if (!outcome.ok) return setStatus({ error: describeFailure(outcome) });
    router.push("/inbox/articles");
  };

  return (
    <form className={styles.articleEditor} onSubmit={onSubmit} aria-label={article ? "Edit the article" : "New article"}>
      <div className={styles.articleFields}>
        <div className={styles.row}>
          {article ? null : (
            <div className={styles.field}>
              <label htmlFor="article-site">Site</label>
              <select className={styles.select} id="article-site" name="site_id" required defaultValue={sites[0]?.id}>
                {sites.map((site) => (
                  <option key={site.id} value={site.id}>
                    {site.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className={`${styles.field} ${styles.grow}`}>
            <label htmlFor="article-title">Title</label>
            <input dir="auto" className={styles.input} id="article-title" name="title" required maxLength={160} defaultValue={article?.title} />
          </div>
        </div>
        <div className={styles.row}>
          <div className={`${styles.field} ${styles.grow}`}>
            <label htmlFor="article-slug">Address (slug)</label>
            <input className={styles.input} id="article-slug" name="slug" maxLength={100} pattern="[a-z0-9]+(-[a-z0-9]+)*" defaultValue={article?.slug} aria-describedby="article-slug-hint" />
            <p className={styles.hint} id="article-slug-hint">
              a-z, 0-9 and “-”; made from the title when empty.
            </p>
          </div>
          <div className={styles.field}>
            <label htmlFor="article-locale">Language</label>
            <input className={styles.input} id="article-locale" name="locale" maxLength={35} size={8} defaultValue={article?.locale} placeholder="the site's" />
          </div>
          <div className={styles.field}>
            <label htmlFor="article-collection">Collection</label>
            <input dir="auto" className={styles.input} id="article-collection" name="collection" maxLength={60} list="article-collections" defaultValue={article?.collection ?? ""} />
            <datalist id="article-collections">
              {collections.map((collection) => (
                <option key={collection} value={collection} />
              ))}
            </datalist>
          </div>
        </div>
        <div className={styles.field}>
          <label htmlFor="article-body">Text (Markdown)</label>
          <textarea
            dir="auto"
            className={`${styles.textarea} ${styles.articleBody}`}
            id="article-body"
            name="body"
            required
            maxLength={50_000}
            value={body}
            onChange={(event) => setBody(event.target.value)}
            aria-describedby="article-body-hint"
          />
          <p className={styles.hint} id="article-body-hint">
            Paragraphs, ## and ### headings, lists, **bold**, *emphasis*, `code`, [links](https://…) and https images. HTML shows as text.
          </p>
        </div>
        <div className={styles.row}>
          <button className={styles.button} type="submit" value="save">
            {article ? "Save" : "Save draft"}
          </button>
          {article?.status === "published" ? (
            <button className={styles.buttonQuiet} type="submit" value="draft">
              Unpublish
            </button>
          ) : (
            <button className={styles.buttonQuiet} type="submit" value="published">
              {article ? "Publish" : "Save and publish"}
            </button>
          )}
          {article ? (
            <button className={styles.buttonDanger} type="button" onClick={() => void remove()}>
              Delete
            </button>
          ) : null}
        </div>
        <Feedback status={status} />
      </div>
      <section className={styles.articlePreview} aria-labelledby="article-preview-title">
        <h2 id="article-preview-title" className={styles.meta}>
          Preview
        </h2>
        {/* The one renderer's output: sanitized HTML (no raw HTML, only http(s)/mailto links, https images). */}
        <div className={styles.articleProse} data-testid="article-preview" dangerouslySetInnerHTML={{ __html: preview }} />
      </section>
    </form>
  );
}

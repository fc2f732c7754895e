import Link from "next/link";
import { listArticlesQuery, type WireArticle } from "@/lib/contracts/articles";
import { listArticles } from "@/lib/articles/views";
import { listSites } from "@/lib/sites/manage-sites";
import styles from "../../inbox.module.css";
import { DataTable, type Column } from "../../_components/ui/data-table";
import { LocalTime } from "../../_components/ui/local-time";
import { SelectField, SiteSelect } from "../../_components/ui/select-field";
import { requireStaffPage } from "../../_components/shared/staff-session";

// Help center articles (docs/answers.md, "Writing articles"): every member reads them, owners
// write. The list filters as GET /api/v1/inbox/articles does (site, status, words).

type Params = Record<string, string | string[] | undefined>;

const text = (value: string | string[] | undefined) => (typeof value === "string" && value.trim() !== "" ? value : undefined);

function readQuery(params: Params) {
  const raw = { site: text(params.site), status: text(params.status), q: text(params.q) };
  const parsed = listArticlesQuery.safeParse(Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined)));
  return parsed.success ? { query: parsed.data, raw, problem: null } : { query: {}, raw, problem: parsed.error.issues[0]?.message ?? "invalid" };
}

export default async function ArticlesPage({ searchParams }: { searchParams: Promise<Params> }) {
  const { member } = await requireStaffPage();
  const { query, raw, problem } = readQuery(await searchParams);
  const [articles, sites] = await Promise.all([listArticles(query), listSites()]);
  const siteName = new Map(sites.map((site) => [site.id, site.name]));
  const columns: Column<WireArticle>[] = [
    { header: "Title", rowHeader: true, cell: (article) => <Link href={`/inbox/articles/${encodeURIComponent(article.id)}`} dir="auto">{article.title}</Link> },
    { header: "Site", cell: (article) => siteName.get(article.site_id) ?? article.site_id },
    { header: "Collection", cell: (article) => article.collection ?? "—" },
    { header: "Language", cell: (article) => article.locale },
    { header: "Status", cell: (article) => (article.status === "published" ? <span className={styles.statusPublished}>Published</span> : "Draft") },
    { header: "Views", cell: (article) => article.views },
    { header: "Helpful", cell: (article) => `${article.helpful} / ${article.not_helpful}` },
    { header: "Changed", cell: (article) => <LocalTime iso={article.updated_at} /> },
  ];
  return (
    <main id="main" className={styles.page}>
      <h1>Articles</h1>
      <p className={styles.hint}>
        What the help center, the widget&apos;s suggestions and the bot answer from. Only published articles are public.{" "}
        {member.role === "owner" ? "" : "Owners write them; you can read them here."}
      </p>
      {member.role === "owner" ? (
        <p>
          <Link className={styles.button} href="/inbox/articles/new">
            New article
          </Link>
        </p>
      ) : null}
      <form method="get" className={`${styles.row} ${styles.card}`} aria-label="Find articles">
        <div className={`${styles.field} ${styles.grow}`}>
          <label htmlFor="articles-q">Words</label>
          <input className={styles.input} type="search" id="articles-q" name="q" defaultValue={raw.q ?? ""} maxLength={200} />
        </div>
        <SiteSelect id="articles-site" name="site" defaultValue={raw.site ?? ""} sites={sites} />
        <SelectField
          id="articles-status"
          name="status"
          label="Status"
          defaultValue={raw.status ?? ""}
          options={[
            { value: "", label: "Any" },
            { value: "published", label: "Published" },
            { value: "draft", label: "Draft" },
          ]}
        />
        <div className={styles.field}>
          <button className={styles.button} type="submit">
            Show
          </button>
        </div>
      </form>
      {problem ? (
        <p role="alert" className={styles.error}>
          Those filters could not be used ({problem}): showing every article.
        </p>
      ) : null}
      {articles.length === 0 ? (
        <p className={styles.hint}>No articles{raw.q || raw.site || raw.status ? " match" : " yet"}.</p>
      ) : (
        <DataTable caption="Articles" narrow="cards" testId="articles" rows={articles} rowKey={(article) => article.id} columns={columns} />
      )}
    </main>
  );
}

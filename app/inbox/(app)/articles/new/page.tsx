import Link from "next/link";
import { articleCollections } from "@/lib/articles/views";
import { listSites } from "@/lib/sites/manage-sites";
import styles from "../../../inbox.module.css";
import { ArticleEditor } from "../../../_components/articles/article-editor";
import { OwnersOnly } from "../../../_components/shared/owners-only";
import { requireStaffPage } from "../../../_components/shared/staff-session";

export default async function NewArticlePage() {
  const { member } = await requireStaffPage();
  if (member.role !== "owner") return <OwnersOnly title="New article" what="write articles" />;
  const [sites, collections] = await Promise.all([listSites(), articleCollections()]);
  return (
    <main id="main" className={styles.wide}>
      <p>
        <Link href="/inbox/articles">← Articles</Link>
      </p>
      <h1>New article</h1>
      {sites.length === 0 ? <p className={styles.hint}>Add a site in Settings first: an article belongs to a site.</p> : <ArticleEditor article={null} sites={sites} collections={collections} />}
    </main>
  );
}

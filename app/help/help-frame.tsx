import type { CSSProperties, ReactNode } from "react";
import { readableTextOn } from "@/lib/articles/brand-text";
import type { HelpCenterSite } from "@/lib/articles/help-center";
import styles from "./help.module.css";

// The help center's frame: the site's colour and title, and a search box that works without
// JavaScript (a GET form to the home page).

export function HelpFrame({ site, query, children }: { site: HelpCenterSite; query?: string; children: ReactNode }) {
  const home = `/help/${encodeURIComponent(site.id)}`;
  const brand = site.brandColor ? ({ "--brand": site.brandColor, "--on-brand": readableTextOn(site.brandColor) } as CSSProperties) : undefined;
  return (
    <div className={styles.page} style={brand}>
      <a className={styles.skip} href="#main">
        Skip to the articles
      </a>
      <header className={styles.header}>
        <div className={styles.headerInner}>
          <p className={styles.siteTitle}>
            <a href={home}>{site.title}</a>
          </p>
          <form className={styles.search} action={home} method="get" role="search">
            <input type="search" name="q" defaultValue={query} maxLength={200} aria-label="Search articles" placeholder="Search articles" />
            <button type="submit">Search</button>
          </form>
        </div>
      </header>
      <main id="main" className={styles.main}>
        {children}
      </main>
    </div>
  );
}

/** A search snippet: plain text with `<<`/`>>` around the matched words, shown as marks. */
export function Snippet({ text }: { text: string }) {
  const parts = text.split(/<<|>>/);
  return <p className={styles.snippet}>{parts.map((part, index) => (index % 2 === 1 ? <mark key={index}>{part}</mark> : part))}</p>;
}

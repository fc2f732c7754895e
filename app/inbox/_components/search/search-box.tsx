"use client";

import { useSearchParams } from "next/navigation";
import styles from "../../inbox.module.css";

// The inbox header's one search box: a plain GET form to /inbox/search (it works before the
// script loads); `/` focuses it from anywhere but a field (./keymap.ts).
export function SearchBox() {
  const current = useSearchParams().get("q") ?? "";
  return (
    <form role="search" action="/inbox/search" method="get" className={styles.searchForm}>
      <label htmlFor="inbox-search" className={styles.srOnly}>
        Search conversations and tickets
      </label>
      <input
        id="inbox-search"
        name="q"
        type="search"
        defaultValue={current}
        key={current}
        placeholder="Search  /"
        maxLength={200}
        required
        aria-keyshortcuts="/"
        className={styles.searchInput}
      />
    </form>
  );
}

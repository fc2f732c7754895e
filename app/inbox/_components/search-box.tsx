"use client";

import { useEffect, useRef } from "react";
import { useSearchParams } from "next/navigation";
import styles from "../inbox.module.css";

/** Whether a key press belongs to a field the member is typing in (shortcuts must not fire then). */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

// The inbox header's one search box: a plain GET form to /inbox/search (it works before the
// script loads), and `/` focuses it from anywhere but a field.
export function SearchBox() {
  const input = useRef<HTMLInputElement>(null);
  const current = useSearchParams().get("q") ?? "";
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <form role="search" action="/inbox/search" method="get" className={styles.searchForm}>
      <label htmlFor="inbox-search" className={styles.srOnly}>
        Search conversations and tickets
      </label>
      <input
        ref={input}
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

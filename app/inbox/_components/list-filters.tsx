"use client";

import { useRouter } from "next/navigation";
import type { FormEvent, ReactNode } from "react";
import styles from "../inbox.module.css";

/**
 * The list's filters: a GET form whose every change applies at once, so the filters live in the
 * URL (shareable, kept by Back). Without JavaScript the form still submits with its button.
 */
export function ListFilters({ children }: { children: ReactNode }) {
  const router = useRouter();
  const apply = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (typeof value === "string" && value !== "") query.set(key, value);
    if (query.get("status") === "open") query.delete("status");
    if (query.get("assigned") === "all") query.delete("assigned");
    const text = query.toString();
    router.push(`/inbox${text ? `?${text}` : ""}`);
  };
  return (
    <form
      className={styles.filters}
      method="get"
      action="/inbox"
      onChange={apply}
      onSubmit={(event) => {
        event.preventDefault();
        apply(event);
      }}
    >
      {children}
      <noscript>
        <button className={styles.buttonQuiet} type="submit">
          Filter
        </button>
      </noscript>
    </form>
  );
}

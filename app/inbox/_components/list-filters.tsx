"use client";

import { useRouter } from "next/navigation";
import type { FormEvent, ReactNode } from "react";
import styles from "../inbox.module.css";

interface Props {
  children: ReactNode;
  /** The list's page. */
  action?: string;
  /** Values left out of the URL (the page's defaults). */
  defaults?: Record<string, string>;
}

/**
 * A list's filters: a GET form whose every change applies at once, so the filters live in the
 * URL (shareable, kept by Back); a search field applies on Enter, not on every key. Without
 * JavaScript the form still submits with its button.
 */
export function ListFilters({ children, action = "/inbox", defaults = { status: "open", assigned: "all" } }: Props) {
  const router = useRouter();
  const apply = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (typeof value === "string" && value !== "" && defaults[key] !== value) query.set(key, value);
    const text = query.toString();
    router.push(`${action}${text ? `?${text}` : ""}`);
  };
  return (
    <form
      className={styles.filters}
      method="get"
      action={action}
      onChange={(event) => {
        if (!(event.target instanceof HTMLInputElement && event.target.type === "search")) apply(event);
      }}
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

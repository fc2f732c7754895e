"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, type FormEvent, type ReactNode } from "react";
import styles from "../../inbox.module.css";

interface Props {
  children: ReactNode;
  /** The list's page. */
  action?: string;
  /** Values left out of the URL (the page's defaults). */
  defaults?: Record<string, string>;
}

/** How long typing in a search field pauses before the search applies. */
const TYPING_PAUSE_MS = 400;

/**
 * A list's filters: a GET form whose every change applies by itself, so the filters live in the
 * URL (shareable, kept by Back). A select applies when chosen; a search field when typing pauses
 * (not on every key), or at once on Enter. Without JavaScript the form submits with its button.
 */
export function ListFilters({ children, action = "/inbox", defaults = { status: "open", assigned: "all" } }: Props) {
  const router = useRouter();
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(typing.current), []);
  const apply = (form: HTMLFormElement) => {
    clearTimeout(typing.current);
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
      onChange={(event: FormEvent<HTMLFormElement>) => {
        const form = event.currentTarget;
        clearTimeout(typing.current);
        if (event.target instanceof HTMLInputElement && event.target.type === "search") typing.current = setTimeout(() => apply(form), TYPING_PAUSE_MS);
        else apply(form);
      }}
      onSubmit={(event) => {
        event.preventDefault();
        apply(event.currentTarget);
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

"use client";

import styles from "../../inbox.module.css";
import { useCopy } from "./use-copy";

/** A "Copy" button for a short text beside it, with its outcome in a polite live region. */
export function CopyButton({ text, label, what = "text" }: { text: string; label: string; what?: string }) {
  const { copy, copied } = useCopy(text, what);
  return (
    <>
      <button type="button" className={styles.buttonQuiet} onClick={() => void copy()}>
        {label}
      </button>
      <span className={styles.meta} role="status">
        {copied}
      </span>
    </>
  );
}

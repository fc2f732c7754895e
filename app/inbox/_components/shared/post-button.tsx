"use client";

import type { ReactNode } from "react";
import styles from "../../inbox.module.css";
import { useSave } from "./use-save";
import { Feedback } from "../ui/feedback";

/** One button that POSTs to an inbox route and says what happened beside it (retry, resend, …). */
export function PostButton({ path, done, label, primary = false, children }: { path: string; done: string; label?: string; primary?: boolean; children: ReactNode }) {
  const { status, save } = useSave();
  return (
    <div className={styles.row}>
      <button className={primary ? styles.button : styles.buttonQuiet} type="button" aria-label={label} onClick={() => save("POST", path, undefined, done)}>
        {children}
      </button>
      <Feedback status={status} />
    </div>
  );
}

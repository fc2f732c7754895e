import type { ReactNode } from "react";
import styles from "../../inbox.module.css";

/** What an agent sees on an owners' page (settings, the outbox), and what it may still do there (`children`). */
export function OwnersOnly({ title, what = "change settings", children }: { title: string; what?: string; children?: ReactNode }) {
  return (
    <main id="main" className={styles.page}>
      <h1>{title}</h1>
      <p role="alert">Only owners can {what}. Ask an owner of this inbox if something needs to change.</p>
      {children}
    </main>
  );
}

import styles from "../inbox.module.css";

/** What an agent sees on an owners' page (settings, the outbox). */
export function OwnersOnly({ title, what = "change settings" }: { title: string; what?: string }) {
  return (
    <main id="main" className={styles.page}>
      <h1>{title}</h1>
      <p role="alert">Only owners can {what}. Ask an owner of this inbox if something needs to change.</p>
    </main>
  );
}

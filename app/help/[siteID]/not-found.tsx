import styles from "../help.module.css";

// Every help center 404 (unknown site, disabled help center, draft, unknown article): one page that
// names nothing of the site, so a disabled help center and a missing one look the same.

export default function HelpNotFound() {
  return (
    <div className={styles.page}>
      <main id="main" className={styles.main}>
        <h1>Page not found</h1>
        <p>There is no help article at this address. It may have been moved or unpublished.</p>
      </main>
    </div>
  );
}

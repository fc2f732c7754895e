"use client";

import styles from "../../inbox.module.css";
import { LocalTime } from "../ui/local-time";
import { useCopy } from "../ui/use-copy";

/** The exact tag to paste into the site's pages, and where the widget has been seen loading. */
export function EmbedStatus({ siteId, serviceOrigin, seen }: { siteId: string; serviceOrigin: string; seen: { origin: string; last_seen_at: string | null }[] }) {
  const snippet = `<script src="${serviceOrigin}/widget.js" data-site="${siteId}" async></script>`;
  const { copy, copied } = useCopy(snippet, "snippet");
  const prefix = `embed-${siteId}`;
  return (
    <div className={styles.field}>
      <label htmlFor={`${prefix}-snippet`}>Embed snippet</label>
      <div className={styles.row}>
        <textarea className={`${styles.textarea} ${styles.code}`} id={`${prefix}-snippet`} readOnly value={snippet} rows={2} onFocus={(event) => event.currentTarget.select()} />
        <button className={styles.buttonQuiet} type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p className={styles.hint} aria-live="polite">
        {copied}
      </p>
      <p className={styles.label} id={`${prefix}-seen`}>
        Seen on
      </p>
      {seen.length ? (
        <ul aria-labelledby={`${prefix}-seen`} data-testid="origins-seen">
          {seen.map((entry) => (
            <li key={entry.origin}>
              <code>{entry.origin}</code>: {entry.last_seen_at ? <>last page view <LocalTime iso={entry.last_seen_at} /></> : "not seen yet"}
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.hint}>No allowed origins yet: the widget loads nowhere.</p>
      )}
    </div>
  );
}

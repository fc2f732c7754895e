"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import styles from "../inbox.module.css";
import { describeFailure, inboxApi } from "./api";
import type { LabelView } from "./label-chips";

/** The conversation header's "Labels" control: a checkbox per label; each change sets the whole set at once. */
export function LabelEditor({ conversationId, labels, applied }: { conversationId: string; labels: LabelView[]; applied: string[] }) {
  const router = useRouter();
  const [chosen, setChosen] = useState(applied);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const appliedKey = applied.join(" ");
  const [seenKey, setSeenKey] = useState(appliedKey);
  if (seenKey !== appliedKey) {
    // Someone (this tab or another) changed them: show what the page now says.
    setSeenKey(appliedKey);
    setChosen(applied);
  }

  const toggle = async (id: string, on: boolean) => {
    const next = on ? [...chosen, id] : chosen.filter((entry) => entry !== id);
    setChosen(next);
    setBusy(true);
    setError(null);
    const outcome = await inboxApi("PUT", `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}/labels`, { labels: next });
    setBusy(false);
    if (!outcome.ok) {
      setChosen(chosen);
      setError(describeFailure(outcome));
      return;
    }
    router.refresh();
  };

  return (
    <details className={styles.labelEditor}>
      <summary data-shortcut-target="label" aria-keyshortcuts="l">
        Labels
      </summary>
      <fieldset aria-busy={busy}>
        <legend className={styles.srOnly}>Labels of this conversation</legend>
        {labels.length === 0 ? <p className={styles.hint}>No labels yet: an owner creates them in Settings.</p> : null}
        {labels.map((label) => (
          <label key={label.id}>
            <input type="checkbox" checked={chosen.includes(label.id)} onChange={(event) => void toggle(label.id, event.target.checked)} />
            <span className={styles.swatch} style={{ background: label.color }} aria-hidden="true" />
            {label.name}
          </label>
        ))}
        {error ? (
          <p className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
      </fieldset>
    </details>
  );
}

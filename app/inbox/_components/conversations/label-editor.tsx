"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";
import { LabelChips, type LabelView } from "../shared/label-chips";

// The conversation header's labels: the chips, and the "Labels" control (a checkbox per label;
// each change sets the whole set at once). A change shows at once (the chip pending until the
// service has it); a failure says so with Retry, and the chips keep what the member chose.

export function ConversationLabels({ conversationId, labels, applied }: { conversationId: string; labels: LabelView[]; applied: string[] }) {
  const router = useRouter();
  const [chosen, setChosen] = useState(applied);
  const [saving, setSaving] = useState(0);
  const [failure, setFailure] = useState<{ why: string; retry: () => void } | null>(null);
  const appliedKey = applied.join(" ");
  const [seenKey, setSeenKey] = useState(appliedKey);
  if (seenKey !== appliedKey) {
    // Someone (this tab or another) changed them: show what the page now says.
    setSeenKey(appliedKey);
    setChosen(applied);
  }

  const save = async (next: string[]) => {
    setSaving((n) => n + 1);
    setFailure(null);
    const outcome = await inboxApi("PUT", `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}/labels`, { labels: next });
    setSaving((n) => n - 1);
    if (!outcome.ok) return setFailure({ why: describeFailure(outcome), retry: () => void save(next) });
    router.refresh();
  };
  const toggle = (id: string, on: boolean) => {
    const next = on ? [...chosen, id] : chosen.filter((entry) => entry !== id);
    setChosen(next);
    void save(next);
  };
  const shown = labels.filter((label) => chosen.includes(label.id));
  const unsaved = saving > 0 || failure ? chosen.filter((id) => !applied.includes(id)) : [];

  return (
    <>
      <LabelChips labels={shown} pendingIds={unsaved} testId="conversation-labels" />
      {failure ? (
        <p className={styles.error} role="alert">
          Labels not saved: {failure.why}{" "}
          <button type="button" className={styles.linkButton} onClick={failure.retry}>
            <u>Retry</u>
          </button>
        </p>
      ) : null}
      <span style={{ marginLeft: "auto" }}>
        <details className={styles.labelEditor}>
          <summary data-shortcut-target="label" aria-keyshortcuts="l">
            Labels
          </summary>
          <fieldset aria-busy={saving > 0}>
            <legend className={styles.srOnly}>Labels of this conversation</legend>
            {labels.length === 0 ? <p className={styles.hint}>No labels yet: an owner creates them in Settings.</p> : null}
            {labels.map((label) => (
              <label key={label.id}>
                <input type="checkbox" checked={chosen.includes(label.id)} onChange={(event) => toggle(label.id, event.target.checked)} />
                <span className={styles.swatch} style={{ background: label.color }} aria-hidden="true" />
                <span dir="auto">{label.name}</span>
              </label>
            ))}
          </fieldset>
        </details>
      </span>
    </>
  );
}

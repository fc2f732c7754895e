import styles from "../../inbox.module.css";

export interface LabelView {
  id: string;
  name: string;
  color: string;
}

/**
 * A conversation's labels as chips: the label's colour as a swatch beside its name (text in the
 * page's colours, so any colour reads). `pendingIds`: labels just added, not saved yet.
 */
export function LabelChips({ labels, testId, pendingIds = [] }: { labels: LabelView[]; testId?: string; pendingIds?: string[] }) {
  if (labels.length === 0) return null;
  return (
    <ul className={styles.chips} aria-label="Labels" data-testid={testId}>
      {labels.map((label) => (
        <li key={label.id} className={styles.chip} data-label={label.id} data-pending={pendingIds.includes(label.id) ? "true" : undefined}>
          <span className={styles.swatch} style={{ background: label.color }} aria-hidden="true" />
          <span dir="auto">{label.name}</span>
        </li>
      ))}
    </ul>
  );
}

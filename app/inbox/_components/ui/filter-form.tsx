import type { ReactNode } from "react";
import styles from "../../inbox.module.css";

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

interface Props {
  /** The page (and fragment) the filters are submitted to, as a plain GET. */
  action: string;
  /** The form's accessible name ("Filter the audit log"). */
  label: string;
  /** Why the URL's filters were refused, when they were (the list is then not shown). */
  issues?: readonly Issue[];
  children: ReactNode;
}

/**
 * The filters of an owners' list (the audit log, the suppression list): a GET form applied with its
 * Filter button, so they live in the URL, and the reasons when the URL's filters cannot be used.
 */
export function FilterForm({ action, label, issues = [], children }: Props) {
  return (
    <>
      <form method="get" action={action} className={styles.row} aria-label={label}>
        {children}
        <div className={styles.field}>
          <button type="submit" className={styles.buttonQuiet}>
            Filter
          </button>
        </div>
      </form>
      {issues.length > 0 ? (
        <p role="alert" className={styles.error}>
          These filters cannot be used: {issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}
        </p>
      ) : null}
    </>
  );
}

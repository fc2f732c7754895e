import styles from "../../inbox.module.css";

/** How a form's last save went: an error, or what was done (both empty before the first). */
export interface SaveStatus {
  error?: string;
  done?: string;
}

/** A form's outcome line: an error is an alert, a success a polite status, both in the same place. */
export function Feedback({ status }: { status: SaveStatus }) {
  return (
    <p className={status.error ? styles.error : styles.success} role={status.error ? "alert" : "status"}>
      {status.error ?? status.done ?? ""}
    </p>
  );
}

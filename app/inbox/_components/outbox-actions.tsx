"use client";

import styles from "../inbox.module.css";
import { Feedback, useSave } from "./settings-sites";

// The outbox's actions (owners): send one email again, or every one not sent or failed, once SMTP
// works. Suppressed emails have no button: the caps are never lifted by hand (docs/notifications.md).

export function ResendEmailButton({ emailId, subject }: { emailId: string; subject: string }) {
  const { status, save } = useSave();
  return (
    <div className={styles.row}>
      <button
        className={styles.buttonQuiet}
        type="button"
        aria-label={`Resend ${subject}`}
        onClick={() => save("POST", `/api/v1/inbox/outbox/${encodeURIComponent(emailId)}/resend`, undefined, "Queued to be sent again.")}
      >
        Resend
      </button>
      <Feedback status={status} />
    </div>
  );
}

export function ResendAllButton() {
  const { status, save } = useSave();
  return (
    <div className={styles.row}>
      <button className={styles.button} type="button" onClick={() => save("POST", "/api/v1/inbox/outbox/resend", undefined, "Every email not sent or failed is queued to be sent again.")}>
        Resend all not sent
      </button>
      <Feedback status={status} />
    </div>
  );
}

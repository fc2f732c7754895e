"use client";

import styles from "../inbox.module.css";
import { PostButton } from "./post-button";
import { Feedback, useSave } from "./settings-sites";

// The outbox's actions (owners): send one email again, or every one not sent or failed, once SMTP
// works; take an address off the suppression list. Suppressed emails have no button: the caps are
// never lifted by hand (docs/notifications.md).

export function ResendEmailButton({ emailId, subject }: { emailId: string; subject: string }) {
  return (
    <PostButton path={`/api/v1/inbox/outbox/${encodeURIComponent(emailId)}/resend`} done="Queued to be sent again." label={`Resend ${subject}`}>
      Resend
    </PostButton>
  );
}

export function ResendAllButton() {
  return (
    <PostButton path="/api/v1/inbox/outbox/resend" done="Every email not sent or failed is queued to be sent again." primary>
      Resend all not sent
    </PostButton>
  );
}

/** Takes an address off the suppression list (owners; audited): its automatic emails go again. */
export function RemoveSuppressionButton({ id, address }: { id: string; address: string }) {
  const { status, save } = useSave();
  return (
    <div className={styles.row}>
      <button
        className={styles.buttonDanger}
        type="button"
        aria-label={`Remove ${address} from the suppression list`}
        onClick={() => void save("DELETE", `/api/v1/inbox/email-suppressions/${encodeURIComponent(id)}`, undefined, "Removed: automatic emails reach this address again.")}
      >
        Remove
      </button>
      <Feedback status={status} />
    </div>
  );
}

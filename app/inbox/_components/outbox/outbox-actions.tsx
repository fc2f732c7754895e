"use client";

import { useEffect, useState } from "react";
import styles from "../../inbox.module.css";
import { PostButton } from "../shared/post-button";
import { useSave } from "../shared/use-save";
import { Feedback } from "../ui/feedback";

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

/** A removal's outcome, told to the list's status line: the entry itself goes with the refresh that follows. */
const SUPPRESSION_REMOVED = "parley:suppression-removed";

/** Takes an address off the suppression list (owners; audited): its automatic emails go again. */
export function RemoveSuppressionButton({ id, address }: { id: string; address: string }) {
  const { status, save } = useSave();
  const remove = async () => {
    if (await save("DELETE", `/api/v1/inbox/email-suppressions/${encodeURIComponent(id)}`, undefined, "")) {
      window.dispatchEvent(new CustomEvent(SUPPRESSION_REMOVED, { detail: `Removed ${address}: automatic emails reach this address again.` }));
    }
  };
  return (
    <div className={styles.row}>
      <button className={styles.buttonDanger} type="button" aria-label={`Remove ${address} from the suppression list`} onClick={() => void remove()}>
        Remove
      </button>
      {status.error ? <Feedback status={status} /> : null}
    </div>
  );
}

/** The suppression list's status line, outside the entries, so a removal's outcome outlives its entry. */
export function SuppressionRemovals() {
  const [done, setDone] = useState("");
  useEffect(() => {
    const told = (event: Event) => setDone((event as CustomEvent<string>).detail);
    window.addEventListener(SUPPRESSION_REMOVED, told);
    return () => window.removeEventListener(SUPPRESSION_REMOVED, told);
  }, []);
  return <Feedback status={{ done }} />;
}

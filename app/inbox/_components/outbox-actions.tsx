"use client";

import { PostButton } from "./post-button";

// The outbox's actions (owners): send one email again, or every one not sent or failed, once SMTP
// works. Suppressed emails have no button: the caps are never lifted by hand (docs/notifications.md).

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

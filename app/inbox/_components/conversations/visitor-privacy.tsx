"use client";

import { useState } from "react";
import styles from "../../inbox.module.css";
import { download, erase } from "../shared/privacy-requests";
import { holdRefreshHere, releaseRefresh } from "../shared/refresh-hold";
import { EraseConfirm } from "../ui/erase-confirm";
import { Feedback, type SaveStatus } from "../ui/feedback";

// A privacy request for the visitor of the open conversation (docs/security.md): an anonymous
// visitor is known only by their visitor id on this site, which this card shows, so owners need
// not copy it into Settings → Privacy requests. The same routes as there.

export function VisitorPrivacy({ siteId, visitorId, name }: { siteId: string; visitorId: string; name: string }) {
  const [status, setStatus] = useState<SaveStatus>({});
  const [busy, setBusy] = useState(false);
  const subject = { visitor_id: visitorId, site: siteId };
  const run = async (work: () => Promise<SaveStatus>) => {
    setBusy(true);
    setStatus({});
    setStatus(await work());
    setBusy(false);
  };
  return (
    <div role="group" aria-label={`Privacy requests for ${name}`}>
      <div className={styles.row}>
        <button
          type="button"
          className={styles.buttonQuiet}
          disabled={busy}
          onClick={() =>
            void run(async () => {
              const error = await download(subject);
              return error ? { error } : { done: "The export is downloaded." };
            })
          }
        >
          Export
        </button>
        <EraseConfirm
          busy={busy}
          question={`Erase everything about ${name} on this site — this conversation and the visitor's others, tickets, files, page views and emails? This cannot be undone.`}
          onErase={() =>
            void run(async () => {
              holdRefreshHere(); // the conversation shown is among what goes
              const outcome = await erase(subject);
              if (outcome.error) releaseRefresh();
              return outcome;
            })
          }
        />
      </div>
      <Feedback status={status} />
    </div>
  );
}

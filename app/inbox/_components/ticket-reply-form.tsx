"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import styles from "../inbox.module.css";
import { describeFailure, inboxApi } from "./api";
import { enterSends } from "./enter-sends";

// A staff reply to a ticket: saved, then emailed to the filer (the subject keeps the ticket number).
// Enter sends, Shift+Enter breaks the line, as in the conversation composer.

export function TicketReplyForm({ ticketId, email, maxLength }: { ticketId: string; email: string; maxLength: number }) {
  const router = useRouter();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const send = async () => {
    if (text.trim() === "" || busy) return;
    setBusy(true);
    setError(null);
    const outcome = await inboxApi("POST", `/api/v1/inbox/tickets/${encodeURIComponent(ticketId)}/replies`, { body: text });
    setBusy(false);
    if (!outcome.ok) {
      setError(describeFailure(outcome));
      return;
    }
    setText("");
    router.refresh();
  };

  return (
    <form
      className={styles.card}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <div className={styles.field}>
        <label htmlFor="ticket-reply-text">Reply to {email}</label>
        <p id="ticket-reply-hint" className={styles.hint}>
          Emailed to {email}; the subject keeps the ticket number.
        </p>
        <textarea
          id="ticket-reply-text"
          aria-describedby="ticket-reply-hint"
          className={styles.textarea}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={enterSends(() => void send())}
          placeholder="Write a reply…"
          rows={4}
          maxLength={maxLength}
        />
      </div>
      <div className={styles.composerRow}>
        <span className={styles.hint}>Enter sends · Shift+Enter for a new line</span>
        <button className={styles.button} type="submit" disabled={busy || text.trim() === ""}>
          {busy ? "Sending…" : "Send reply"}
        </button>
      </div>
      <p className={styles.error} role="alert">
        {error}
      </p>
    </form>
  );
}

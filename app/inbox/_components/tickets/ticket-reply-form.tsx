"use client";

import { useState } from "react";
import styles from "../../inbox.module.css";
import { inboxApi } from "../shared/api";
import { enterSends, SendRow, useSendText } from "../shared/compose";

// A staff reply to a ticket: saved, then emailed to the filer (the subject keeps the ticket number);
// the reply's line on the page says what became of that email. "Set pending" sets the ticket
// pending with the reply (waiting for the filer, whose next email reopens it).

export function TicketReplyForm({ ticketId, email, maxLength }: { ticketId: string; email: string; maxLength: number }) {
  const [pending, setPending] = useState(false);
  const { text, setText, busy, error, send } = useSendText((body) =>
    inboxApi("POST", `/api/v1/inbox/tickets/${encodeURIComponent(ticketId)}/replies`, pending ? { body, status: "pending" } : { body }),
  );
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
          Sent by email to {email} (the subject keeps the ticket number); each reply above says whether it went.
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
      <label className={styles.checkRow}>
        <input type="checkbox" checked={pending} onChange={(event) => setPending(event.target.checked)} /> Set pending with this reply (waiting for the filer)
      </label>
      <SendRow label={busy ? "Sending…" : "Send reply"} disabled={busy || text.trim() === ""} error={error} />
    </form>
  );
}

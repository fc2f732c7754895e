import Link from "next/link";
import { notFound } from "next/navigation";
import { readInboxTicket } from "@/lib/tickets/inbox-tickets";
import { AppError } from "@/lib/core/errors";
import { MAX_TICKET_REPLY_LENGTH } from "@/lib/contracts/tickets";
import styles from "../../../inbox.module.css";
import { LocalTime } from "../../../_components/local-time";
import { requireStaffPage } from "../../../_components/staff-session";
import { TicketReplyForm } from "../../../_components/ticket-reply-form";

/** What really became of a reply's email (the outbox's state), never a promise. */
const DELIVERY: Record<string, { text: (email: string) => string; bad: boolean }> = {
  queued: { text: (email) => `Queued for ${email}`, bad: false },
  sent: { text: (email) => `Emailed to ${email}`, bad: false },
  failed: { text: () => "Not sent yet: the mail server refused it; retrying", bad: true },
  not_sent: { text: () => "Not sent: no mail server is configured (see the outbox)", bad: true },
  suppressed: { text: () => "Not sent: suppressed (see the outbox)", bad: true },
};

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

export default async function TicketPage({ params }: { params: Promise<{ id: string }> }) {
  await requireStaffPage();
  const { id } = await params;
  const ticket = await readInboxTicket(decodeURIComponent(id)).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  return (
    <main id="main" className={styles.page}>
      <p>
        <Link href="/inbox/tickets">← All tickets</Link>
      </p>
      <h1>
        #{ticket.number} {ticket.subject}
      </h1>
      <div className={styles.card}>
        <p className={styles.meta}>
          From {ticket.name ? `${ticket.name} ` : ""}
          <a href={`mailto:${ticket.email}`}>{ticket.email}</a> · {ticket.site_name} ({ticket.origin}) · priority {ticket.priority} ·{" "}
          <LocalTime iso={ticket.created_at} full />
        </p>
        <p style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{ticket.body}</p>
      </div>
      <h2>Files</h2>
      {ticket.attachments.length === 0 ? (
        <p className={styles.hint}>No files.</p>
      ) : (
        <ul>
          {ticket.attachments.map((attachment) => (
            <li key={attachment.id}>
              {attachment.uploaded ? (
                <a href={attachment.download_url} download>
                  {attachment.name}
                </a>
              ) : (
                <span>{attachment.name} (not uploaded)</span>
              )}{" "}
              <span className={styles.meta}>
                {attachment.content_type}, {size(attachment.bytes)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2 id="replies-heading">Replies</h2>
      {ticket.replies.length === 0 ? (
        <p className={styles.hint}>No replies yet.</p>
      ) : (
        <ol className={styles.ticketReplies} aria-labelledby="replies-heading">
          {ticket.replies.map((reply) => (
            <li key={reply.id} className={reply.author_type === "filer" ? styles.message : `${styles.message} ${styles.fromStaff}`}>
              <div className={styles.messageMeta}>
                {reply.author_name} · <LocalTime iso={reply.created_at} full />
                {reply.author_type === "filer" && " · by email"}
              </div>
              <p>{reply.body}</p>
              {reply.email_status && (
                <div className={DELIVERY[reply.email_status]!.bad ? `${styles.messageMeta} ${styles.statusBad}` : styles.messageMeta} data-testid="reply-delivery">
                  {DELIVERY[reply.email_status]!.text(ticket.email)}
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      <TicketReplyForm ticketId={ticket.id} email={ticket.email} maxLength={MAX_TICKET_REPLY_LENGTH} />
    </main>
  );
}

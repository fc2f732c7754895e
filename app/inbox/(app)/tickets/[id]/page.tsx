import Link from "next/link";
import { notFound } from "next/navigation";
import { readInboxTicket } from "@/lib/tickets/inbox-tickets";
import { AppError } from "@/lib/core/errors";
import { MAX_TICKET_REPLY_LENGTH } from "@/lib/contracts/tickets";
import styles from "../../../inbox.module.css";
import { LocalTime } from "../../../_components/ui/local-time";
import { requireStaffPage } from "../../../_components/shared/staff-session";
import { TicketReplyForm } from "../../../_components/tickets/ticket-reply-form";
import { TicketTriage } from "../../../_components/tickets/ticket-triage";
import { listAssignable } from "@/lib/staff/team";
import type { InboxWireTicketDetail } from "@/lib/tickets/inbox-tickets";

/** What really became of a reply's email (the outbox's state), never a promise. */
const DELIVERY: Record<string, { text: (email: string) => string; bad: boolean }> = {
  queued: { text: (email) => `Queued for ${email}`, bad: false },
  sent: { text: (email) => `Emailed to ${email}`, bad: false },
  failed: { text: () => "Not sent yet: the mail server refused it; retrying", bad: true },
  not_sent: { text: () => "Not sent: no mail server is configured (see the outbox)", bad: true },
  suppressed: { text: () => "Not sent: suppressed (see the outbox)", bad: true },
};

type TicketEvent = InboxWireTicketDetail["events"][number];

/** A staff-only line of the thread: "Ada set status to solved". */
function describeEvent(event: TicketEvent): string {
  if (event.actor_name === null) return event.to === "open" ? "Reopened: the filer replied" : `Status set to ${event.to}`;
  if (event.field === "assignee") return event.to === null ? `${event.actor_name} unassigned this` : `${event.actor_name} assigned this to ${event.to}`;
  return `${event.actor_name} set ${event.field} to ${event.to}`;
}

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

export default async function TicketPage({ params }: { params: Promise<{ id: string }> }) {
  const { member } = await requireStaffPage();
  const { id } = await params;
  const [ticket, assignable] = await Promise.all([
    readInboxTicket(member, decodeURIComponent(id)).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "not_found") notFound();
      throw error;
    }),
    listAssignable(),
  ]);
  // A deactivated assignee stays selectable as the current value.
  const members = ticket.assignee && !assignable.some((member) => member.id === ticket.assignee!.id) ? [...assignable, ticket.assignee] : assignable;
  const thread = [
    ...ticket.replies.map((reply) => ({ kind: "reply" as const, at: reply.created_at, reply })),
    ...ticket.events.map((event) => ({ kind: "event" as const, at: event.created_at, event })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return (
    <main id="main" className={styles.page}>
      <p>
        <Link href="/inbox/tickets">← All tickets</Link>
      </p>
      <h1>
        #{ticket.number} <span dir="auto">{ticket.subject}</span>
      </h1>
      <div className={styles.card}>
        <p className={styles.meta}>
          From {ticket.name ? <span dir="auto">{ticket.name}</span> : null}{" "}
          <a href={`mailto:${ticket.email}`}>{ticket.email}</a> · {ticket.site_name} ({ticket.origin}) ·{" "}
          <LocalTime iso={ticket.created_at} full />
        </p>
        <p style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} dir="auto">
          {ticket.body}
        </p>
      </div>
      <TicketTriage ticketId={ticket.id} status={ticket.status} assigneeId={ticket.assignee?.id ?? null} priority={ticket.priority} members={members} />
      <h2>Files</h2>
      {ticket.attachments.length === 0 ? (
        <p className={styles.hint}>No files.</p>
      ) : (
        <ul>
          {ticket.attachments.map((attachment) => (
            <li key={attachment.id}>
              {attachment.uploaded ? (
                <a href={attachment.download_url} download dir="auto">
                  {attachment.name}
                </a>
              ) : (
                <span>
                  <span dir="auto">{attachment.name}</span> (not uploaded)
                </span>
              )}{" "}
              <span className={styles.meta}>
                {attachment.content_type}, {size(attachment.bytes)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2 id="replies-heading">Replies</h2>
      {thread.length === 0 ? (
        <p className={styles.hint}>No replies yet.</p>
      ) : (
        <ol className={styles.ticketReplies} aria-labelledby="replies-heading" data-testid="ticket-thread">
          {thread.map((item) => {
            if (item.kind === "event") {
              return (
                <li key={item.event.id} className={styles.timelineLine}>
                  {describeEvent(item.event)} · <LocalTime iso={item.event.created_at} />
                </li>
              );
            }
            const { reply } = item;
            return (
              <li key={reply.id} className={reply.author_type === "filer" ? styles.message : `${styles.message} ${styles.fromStaff}`}>
                <div className={styles.messageMeta}>
                  {reply.author_name} · <LocalTime iso={reply.created_at} full />
                  {reply.author_type === "filer" && " · by email"}
                </div>
                <p dir="auto">{reply.body}</p>
                {reply.email_status && (
                  <div className={DELIVERY[reply.email_status]!.bad ? `${styles.messageMeta} ${styles.statusBad}` : styles.messageMeta} data-testid="reply-delivery">
                    {DELIVERY[reply.email_status]!.text(ticket.email)}
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <TicketReplyForm ticketId={ticket.id} email={ticket.email} maxLength={MAX_TICKET_REPLY_LENGTH} />
    </main>
  );
}

import { listOutbox } from "@/lib/email/outbox";
import styles from "../../inbox.module.css";
import { LocalTime } from "../../_components/local-time";
import { OwnersOnly } from "../../_components/owners-only";
import { requireStaffPage } from "../../_components/staff-session";

type OutboxEmail = Awaited<ReturnType<typeof listOutbox>>[number];

const KIND_LABELS: Record<string, string> = {
  staff_alert: "Staff alert",
  visitor_follow_up: "Visitor follow-up",
  ticket_acknowledgement: "Ticket acknowledgement",
  ticket_reply: "Ticket reply",
};

const SUPPRESSED_LABELS: Record<string, string> = {
  hourly_cap: "Suppressed: this address had its automatic emails for the hour",
  daily_cap: "Suppressed: this address had its automatic emails for the day",
};

/** sent / not sent (no SMTP_URL) / suppressed (over a per-recipient cap) / failed (SMTP refused; the queue tries again) / sending. */
function statusOf(email: OutboxEmail): { label: string; bad: boolean } {
  if (email.status === "sent") return { label: "Sent", bad: false };
  if (email.status === "not_sent") return { label: "Not sent", bad: true };
  if (email.status === "suppressed") return { label: SUPPRESSED_LABELS[email.suppressed_reason ?? ""] ?? "Suppressed", bad: true };
  if (email.error) return { label: `Failed (${email.error}), will retry`, bad: true };
  return { label: "Sending", bad: false };
}

export default async function OutboxPage() {
  const { member } = await requireStaffPage();
  if (member.role !== "owner") return <OwnersOnly title="Email outbox" what="read the email outbox" />;
  const emails = await listOutbox();
  return (
    <main id="main" className={styles.page}>
      <h1>Email outbox</h1>
      <p className={styles.hint}>
        Every email Parley writes, newest first (the last 200). Without <code>SMTP_URL</code> none is sent: they stay here, marked “not sent”.
        Automatic emails beyond <code>EMAIL_RECIPIENT_HOURLY_CAP</code> an hour or <code>EMAIL_RECIPIENT_DAILY_CAP</code> a day to one address
        are kept here unsent, marked “suppressed”.
      </p>
      {emails.length === 0 ? (
        <p className={styles.empty}>No emails yet.</p>
      ) : (
        <ol className={styles.cards} data-testid="outbox">
          {emails.map((email) => {
            const status = statusOf(email);
            return (
              <li key={email.id} className={styles.card} data-email={email.id}>
                <div className={styles.deliveryLine}>
                  <strong className={styles.breakAnywhere}>{email.subject}</strong>
                  <span className={status.bad ? styles.statusBad : styles.statusText} data-testid="email-status">
                    {status.label}
                  </span>
                </div>
                <p className={styles.meta}>
                  To <span className={styles.breakAnywhere}>{email.to}</span> · {KIND_LABELS[email.kind] ?? email.kind} · <LocalTime iso={email.created_at} full />
                </p>
                <details>
                  <summary>Text of the email</summary>
                  <pre className={styles.code}>{email.text}</pre>
                </details>
              </li>
            );
          })}
        </ol>
      )}
    </main>
  );
}

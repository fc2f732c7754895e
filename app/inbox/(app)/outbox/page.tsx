import Link from "next/link";
import { OUTBOX_FILTERS, outboxQuery, type OutboxFilter } from "@/lib/contracts/outbox";
import type { EmailKind } from "@/lib/email/email-kinds";
import { listOutbox } from "@/lib/email/sending/outbox";
import { ResendAllButton, ResendEmailButton } from "../../_components/outbox/outbox-actions";
import { OutboxSuppressions } from "../../_components/outbox/outbox-suppressions";
import { InboundCounts } from "../../_components/outbox/inbound-counts";
import styles from "../../inbox.module.css";
import { LocalTime } from "../../_components/ui/local-time";
import { OwnersOnly } from "../../_components/shared/owners-only";
import { requireStaffPage } from "../../_components/shared/staff-session";

type OutboxEmail = Awaited<ReturnType<typeof listOutbox>>[number];

/** Every kind has its words (typed: a new kind fails the typecheck until it has them), never the raw name. */
const KIND_LABELS: Record<EmailKind, string> = {
  staff_alert: "Staff alert",
  visitor_follow_up: "Visitor follow-up",
  visitor_transcript: "Conversation transcript",
  ticket_acknowledgement: "Ticket acknowledgement",
  ticket_reply: "Ticket reply",
  staff_invite: "Team invite",
  staff_mention: "Mention in a note",
  staff_sla_breach: "SLA breach",
};

const SUPPRESSED_LABELS: Record<string, string> = {
  hourly_cap: "Suppressed: this address had its automatic emails for the hour",
  daily_cap: "Suppressed: this address had its automatic emails for the day",
  unsubscribe: "Suppressed: this address unsubscribed from this site's automatic emails",
  hard_bounce: "Suppressed: mail to this address bounced permanently",
  complaint: "Suppressed: this address reported an earlier email as spam",
};

/** sent / not sent (no SMTP_URL) / suppressed (over a per-recipient cap or on the suppression list) / failed (SMTP refused; the queue tries again) / sending. */
function statusOf(email: OutboxEmail): { label: string; bad: boolean } {
  if (email.status === "sent" && email.error?.startsWith("bounced")) return { label: `Sent, then ${email.error}: the address is now suppressed`, bad: true };
  if (email.status === "sent" && email.error === "complaint") return { label: "Sent, then reported as spam: the address is now suppressed", bad: true };
  if (email.status === "sent") return { label: "Sent", bad: false };
  if (email.status === "not_sent") return { label: "Not sent", bad: true };
  if (email.status === "suppressed") return { label: SUPPRESSED_LABELS[email.suppressed_reason ?? ""] ?? "Suppressed", bad: true };
  if (email.error) return { label: `Failed (${email.error}), will retry`, bad: true };
  return { label: "Sending", bad: false };
}

const FILTER_LABELS: Record<OutboxFilter, string> = {
  not_sent: "Not sent",
  pending: "Sending",
  failed: "Failed",
  sent: "Sent",
  suppressed: "Suppressed",
};

/** Not sent, or failed (SMTP refused; the queue retries it): what "Resend" may send again. */
const resendable = (email: OutboxEmail) => email.status === "not_sent" || (email.status === "pending" && email.error !== null);

type Search = { status?: string; reason?: string; q?: string; cursor?: string };

export default async function OutboxPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { member } = await requireStaffPage();
  if (member.role !== "owner") return <OwnersOnly title="Email outbox" what="read the email outbox" />;
  const search = await searchParams;
  const parsed = outboxQuery.safeParse({ status: search.status });
  const filter = parsed.success ? parsed.data.status : undefined;
  const emails = await listOutbox({ status: filter });
  return (
    <main id="main" className={styles.page}>
      <h1>Email outbox</h1>
      <p className={styles.hint}>
        Every email Parley writes, newest first (the last 200). Without <code>SMTP_URL</code> none is sent: they stay here, marked “not sent”.
        Automatic emails beyond <code>EMAIL_RECIPIENT_HOURLY_CAP</code> an hour or <code>EMAIL_RECIPIENT_DAILY_CAP</code> a day to one address
        are kept here unsent, marked “suppressed”.
      </p>
      <nav className={styles.nav} aria-label="Filter by state">
        <Link href="/inbox/outbox" aria-current={filter ? undefined : "page"}>
          All
        </Link>
        {OUTBOX_FILTERS.map((state) => (
          <Link key={state} href={`/inbox/outbox?status=${state}`} aria-current={filter === state ? "page" : undefined}>
            {FILTER_LABELS[state]}
          </Link>
        ))}
      </nav>
      <p className={styles.hint}>
        Once SMTP works, send again what was not sent or failed. Suppressed emails are never sent: the caps protect addresses anyone can type
        into a form.
      </p>
      <ResendAllButton />
      {emails.length === 0 ? (
        <p className={styles.empty}>{filter ? "No emails in this state." : "No emails yet."}</p>
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
                  To <span className={styles.breakAnywhere}>{email.to}</span> · {KIND_LABELS[email.kind as EmailKind] ?? "Email"} · <LocalTime iso={email.created_at} full />
                </p>
                <details>
                  <summary>Text of the email</summary>
                  <pre className={styles.code}>{email.text}</pre>
                </details>
                {resendable(email) ? <ResendEmailButton emailId={email.id} subject={email.subject} /> : null}
              </li>
            );
          })}
        </ol>
      )}
      <OutboxSuppressions filters={{ reason: search.reason, q: search.q, cursor: search.cursor }} />
      <InboundCounts />
    </main>
  );
}

import { INBOUND_COUNT_DAYS } from "@/lib/contracts/suppressions";
import { inboundCounts } from "@/lib/email/inbound/inbound-record";
import styles from "../inbox.module.css";

// The outbox page's inbound section (owners): what became of the mail that reached the reply
// domain in the last 30 days, by outcome and reason (GET /api/v1/inbox/inbound-counts).

const OUTCOME_LABELS: Record<string, string> = {
  accepted: "Taken",
  unverified: "Kept as a staff-only note",
  ignored: "Ignored",
  refused: "Refused",
};

export async function InboundCounts() {
  const { counts, total } = await inboundCounts();
  return (
    <section aria-labelledby="inbound-title">
      <h2 id="inbound-title">Inbound email, last {INBOUND_COUNT_DAYS} days</h2>
      <p className={styles.hint}>
        Replies by email, bounces and spam complaints that reached the reply domain. Refusals (a forged sender, a changed token, DMARC failing for a
        member) are never answered by email.
      </p>
      {total === 0 ? (
        <p className={styles.empty}>No inbound email in the last {INBOUND_COUNT_DAYS} days.</p>
      ) : (
        <div className={styles.tableScroll} role="region" aria-label="Inbound emails by outcome" tabIndex={0}>
          <table className={styles.table} data-testid="inbound-counts">
            <caption className={styles.srOnly}>Inbound emails of the last {INBOUND_COUNT_DAYS} days by outcome and reason</caption>
            <thead>
              <tr>
                <th scope="col">Outcome</th>
                <th scope="col">Reason</th>
                <th scope="col">Emails</th>
              </tr>
            </thead>
            <tbody>
              {counts.map((row) => (
                <tr key={`${row.outcome} ${row.reason}`}>
                  <td>{OUTCOME_LABELS[row.outcome] ?? row.outcome}</td>
                  <td>{row.reason === null ? "reply posted" : <code>{row.reason}</code>}</td>
                  <td>{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

import { INBOUND_COUNT_DAYS, type InboundCountsWire } from "@/lib/contracts/suppressions";
import { inboundCounts } from "@/lib/email/inbound/inbound-record";
import styles from "../../inbox.module.css";
import { DataTable, type Column } from "../ui/data-table";

// The outbox page's inbound section (owners): what became of the mail that reached the reply
// domain in the last 30 days, by outcome and reason (GET /api/v1/inbox/inbound-counts).

const OUTCOME_LABELS: Record<string, string> = {
  accepted: "Taken",
  unverified: "Kept as a staff-only note",
  ignored: "Ignored",
  refused: "Refused",
};

const COLUMNS: Column<InboundCountsWire["counts"][number]>[] = [
  { header: "Outcome", cell: (row) => OUTCOME_LABELS[row.outcome] ?? row.outcome },
  { header: "Reason", cell: (row) => (row.reason === null ? "reply posted" : <code>{row.reason}</code>) },
  { header: "Emails", cell: (row) => row.count },
];

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
        <DataTable
          caption={`Inbound emails of the last ${INBOUND_COUNT_DAYS} days by outcome and reason`}
          narrow="scroll"
          testId="inbound-counts"
          rows={counts}
          rowKey={(row) => `${row.outcome} ${row.reason}`}
          columns={COLUMNS}
        />
      )}
    </section>
  );
}

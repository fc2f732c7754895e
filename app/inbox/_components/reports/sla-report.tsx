import type { Report } from "@/lib/reports/report";
import styles from "../../inbox.module.css";
import { DataTable, type Column } from "../ui/data-table";

// "% of SLAs met" on the Reports page (docs/sla.md): the targets started in the range and decided,
// per policy, team and member credited.

type Group = Report["sla"]["by_policy"][number];

const percent = (value: number | null) => (value === null ? "—" : `${value}%`);
const COLUMNS = (first: string): Column<Group>[] => [
  { header: first, cell: (group) => group.label, rowHeader: true },
  { header: "Met", cell: (group) => group.met },
  { header: "Missed", cell: (group) => group.missed },
  { header: "% met", cell: (group) => percent(group.percent_met) },
];

export function SlaReport({ sla }: { sla: Report["sla"] }) {
  const tables = [
    ["policy", "Per policy", "Policy", sla.by_policy],
    ["team", "Per team", "Team", sla.by_team],
    ["member", "Per member (who replied or closed)", "Member", sla.by_member],
  ] as const;
  return (
    <section className={styles.card} aria-labelledby="sla-report-title" data-testid="sla-report">
      <h2 id="sla-report-title">SLAs met</h2>
      {sla.met + sla.missed === 0 ? (
        <p className={styles.hint}>No SLA target was decided in this range.</p>
      ) : (
        <>
          <p>
            {percent(sla.percent_met)} met ({sla.met} met, {sla.missed} missed)
          </p>
          {tables.map(([key, caption, first, rows]) => (
            <DataTable key={key} caption={caption} narrow="scroll" testId={`sla-${key}-table`} rows={[...rows]} rowKey={(group) => group.key ?? "none"} columns={COLUMNS(first)} />
          ))}
        </>
      )}
    </section>
  );
}

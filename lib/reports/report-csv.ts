import type { ReportQuery } from "../contracts/reports";
import { visitorLook } from "../visitors/generated-name";
import { cyclesStartedIn } from "./cycle-statements";
import { measureFor } from "./report";

// GET /inbox/reports.csv: one row per conversation cycle started in the range, as measured by
// lib/reports/metrics.ts and kept in conversation_cycles (docs/reports.md).

const COLUMNS = [
  "conversation_id",
  "site_id",
  "assigned_member_id",
  "cycle",
  "started_at",
  "first_response_s",
  "first_response_skipped_s",
  "bot_replies_ignored",
  "resolution_s",
  "resolution_skipped_s",
  "closed_at",
  "visitor_name",
  "first_responder_id",
  "first_responder_name",
  "closed_by_id",
  "closed_by_name",
  "rating",
  "labels",
  "sla_policy_id",
  "sla_first_response_met",
  "sla_next_response_met",
  "sla_resolution_met",
] as const;

/** An SLA target of the cycle: `yes` (every one met), `no` (one missed), empty (none decided). */
const metCell = (met: boolean | null) => (met === null ? null : met ? "yes" : "no");

/** RFC 4180 quoting; a text cell a spreadsheet would run as a formula starts with an apostrophe. */
function cell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The download's name: the range as chosen, its last day included (`to` is the end, excluded). */
export function reportCsvName(query: Pick<ReportQuery, "from" | "to">): string {
  const day = (at: Date) => at.toISOString().slice(0, 10);
  return `parley-report-${day(query.from)}-${day(new Date(query.to.getTime() - 1))}.csv`;
}

export async function reportCsv(query: ReportQuery): Promise<string> {
  await measureFor(query);
  const rows = (await cyclesStartedIn(query)).map((row) =>
    [
      row.conversation_id,
      row.site_id,
      row.member_id,
      row.cycle,
      row.started_at!.toISOString(),
      row.first_response_s,
      row.first_response_skipped_s,
      row.bot_replies_ignored,
      row.resolution_s,
      row.resolution_skipped_s,
      row.closed_at?.toISOString() ?? null,
      visitorLook(row.visitor_name, row.visitor_seed).display_name,
      row.first_responder_id,
      row.first_responder_name,
      row.closed_by_id,
      row.closed_by_name,
      row.rating,
      row.labels,
      row.sla_policy_id,
      metCell(row.sla_first_response_met),
      metCell(row.sla_next_response_met),
      metCell(row.sla_resolution_met),
    ]
      .map(cell)
      .join(","),
  );
  return [COLUMNS.join(","), ...rows].join("\r\n") + "\r\n";
}

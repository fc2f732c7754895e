import type { ReportQuery } from "../contracts/reports";
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
] as const;

/** RFC 4180 quoting; a text cell a spreadsheet would run as a formula starts with an apostrophe. */
function cell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
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
    ]
      .map(cell)
      .join(","),
  );
  return [COLUMNS.join(","), ...rows].join("\r\n") + "\r\n";
}

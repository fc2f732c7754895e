import type { ReportQuery } from "../contracts/reports";
import { measureRange } from "./report";

// GET /inbox/reports.csv: one row per conversation cycle started in the range, measured by
// lib/reports/metrics.ts like the report and the conversation reads (docs/reports.md).

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
  const { cycles } = await measureRange(query);
  cycles.sort((a, b) => a.cycle.startedAt.getTime() - b.cycle.startedAt.getTime() || a.conversationId.localeCompare(b.conversationId));
  const rows = cycles.map(({ conversationId, siteId, memberId, number, cycle }) =>
    [
      conversationId,
      siteId,
      memberId,
      number,
      cycle.startedAt.toISOString(),
      cycle.firstResponse?.seconds ?? null,
      cycle.firstResponse?.skippedSeconds ?? null,
      cycle.botRepliesIgnored,
      cycle.resolution?.seconds ?? null,
      cycle.resolution?.skippedSeconds ?? null,
      cycle.closedAt?.toISOString() ?? null,
    ]
      .map(cell)
      .join(","),
  );
  return [COLUMNS.join(","), ...rows].join("\r\n") + "\r\n";
}

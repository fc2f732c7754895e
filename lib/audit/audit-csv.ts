import { MAX_AUDIT_CSV_ROWS, type AuditEventWire, type AuditFilters } from "../contracts/audit";
import { auditRows } from "./list-audit";

// The audit log as CSV (RFC 4180: comma separated, CRLF, every cell quoted). A cell that a
// spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) is prefixed with an
// apostrophe: an actor's email or a site's name is written by someone else and opened by an owner.

const COLUMNS = ["at", "actor", "action", "target", "ip", "details", "id"] as const;
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | null): string {
  const text = value ?? "";
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

export function auditCsv(rows: AuditEventWire[]): string {
  const lines = [COLUMNS.join(",")];
  for (const row of rows) {
    lines.push([row.at, row.actor, row.action, row.target, row.ip, JSON.stringify(row.details), row.id].map(cell).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/** The download: every matching row, newest first, up to MAX_AUDIT_CSV_ROWS. */
export async function auditCsvDownload(filters: AuditFilters): Promise<Response> {
  const body = auditCsv(await auditRows(filters, MAX_AUDIT_CSV_ROWS));
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="parley-audit-${new Date().toISOString().slice(0, 10)}.csv"`,
    },
  });
}

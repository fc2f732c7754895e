import Link from "next/link";
import { auditQuery, type AuditEventWire } from "@/lib/contracts/audit";
import { listAudit } from "@/lib/audit/list-audit";
import { listTeam } from "@/lib/staff/team";
import styles from "../../../inbox.module.css";
import { actorInWords, detailsInWords } from "../../../_components/settings/audit-wording";
import { DataTable, type Column } from "../../../_components/ui/data-table";
import { FilterForm } from "../../../_components/ui/filter-form";
import { LocalTime } from "../../../_components/ui/local-time";
import { OwnersOnly } from "../../../_components/shared/owners-only";
import { requireStaffPage } from "../../../_components/shared/staff-session";

// The audit log for owners (docs/security.md, "Audit log"): a plain GET form of filters (dates are
// whole UTC days, `to` included), the rows newest first, older ones by the cursor, and the same
// filters as a CSV download (GET /api/v1/inbox/audit.csv).

interface Filters {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
  cursor?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The start of the day after `day` (the filter's `to` is exclusive); an impossible date stays as typed, and is refused. */
function nextDay(day: string): string {
  const start = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(start) ? day : new Date(start + 86_400_000).toISOString();
}

/** The page's fields as the API's query: days become times, empty fields are left out. */
function apiQuery(filters: Filters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.actor) query.actor = filters.actor;
  if (filters.action) query.action = filters.action;
  if (filters.from) query.from = DAY.test(filters.from) ? `${filters.from}T00:00:00Z` : filters.from;
  if (filters.to) query.to = DAY.test(filters.to) ? nextDay(filters.to) : filters.to;
  return query;
}

const auditColumns = (names: ReadonlyMap<string, string>): Column<AuditEventWire>[] => [
  { header: "When", cell: (event) => <LocalTime iso={event.at} full /> },
  { header: "Who", cell: (event) => <span dir="auto">{actorInWords(event.actor, names)}</span>, className: styles.breakAnywhere },
  { header: "Action", cell: (event) => <code>{event.action}</code> },
  { header: "On", cell: (event) => event.target ?? "", className: styles.breakAnywhere },
  { header: "From", cell: (event) => event.ip ?? "" },
  { header: "Details", cell: (event) => detailsInWords(event.details), className: styles.breakAnywhere },
];

const pick = (value: string | string[] | undefined) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { member } = await requireStaffPage();
  if (member.role !== "owner") return <OwnersOnly title="Audit log" what="read the audit log" />;
  const raw = await searchParams;
  const filters: Filters = { actor: pick(raw.actor), action: pick(raw.action), from: pick(raw.from), to: pick(raw.to), cursor: pick(raw.cursor) };
  const filterQuery = apiQuery(filters);
  const parsed = auditQuery.safeParse({ ...filterQuery, ...(filters.cursor ? { cursor: filters.cursor } : {}) });
  const [page, team] = await Promise.all([parsed.success ? listAudit(parsed.data) : null, listTeam()]);
  const names = new Map(team.map((entry) => [entry.id, entry.name]));
  const pageFilters = new URLSearchParams(Object.entries(filters).filter(([name, value]) => name !== "cursor" && value) as [string, string][]);
  const csvHref = `/api/v1/inbox/audit.csv?${new URLSearchParams(filterQuery)}`;
  return (
    <main id="main" className={styles.page}>
      <p>
        <Link href="/inbox/settings">← Settings</Link>
      </p>
      <h1>Audit log</h1>
      <p className={styles.hint}>
        Every change made by a member or with the operator token, sign-ins and failed sign-ins included, newest first. Nobody can edit or delete
        an entry; old entries go only by the retention period.
      </p>
      <FilterForm action="/inbox/settings/audit" label="Filter the audit log" issues={parsed.success ? [] : parsed.error.issues}>
        <div className={styles.field}>
          <label htmlFor="audit-actor">Who</label>
          <input id="audit-actor" name="actor" className={styles.input} defaultValue={filters.actor} placeholder="member:ada, operator" maxLength={120} />
        </div>
        <div className={styles.field}>
          <label htmlFor="audit-action">Action</label>
          <input id="audit-action" name="action" className={styles.input} defaultValue={filters.action} placeholder="webhook.*" maxLength={64} />
        </div>
        <div className={styles.field}>
          <label htmlFor="audit-from">From (UTC day)</label>
          <input id="audit-from" name="from" type="date" className={styles.input} defaultValue={filters.from} />
        </div>
        <div className={styles.field}>
          <label htmlFor="audit-to">To (UTC day, included)</label>
          <input id="audit-to" name="to" type="date" className={styles.input} defaultValue={filters.to} />
        </div>
      </FilterForm>
      <p>
        <a href={csvHref} download data-testid="audit-csv">
          Download as CSV
        </a>
      </p>
      {page && page.items.length === 0 ? <p className={styles.empty}>No entries{pageFilters.size > 0 ? " match these filters" : " yet"}.</p> : null}
      {page && page.items.length > 0 ? (
        // Six columns do not fit a phone: the table scrolls sideways in its own region, the page does not.
        <DataTable
          caption="Audit log entries, newest first"
          narrow="scroll"
          testId="audit"
          rows={page.items}
          rowKey={(event) => event.id}
          rowAttributes={(event) => ({ "data-action": event.action })}
          columns={auditColumns(names)}
        />
      ) : null}
      {page?.next_cursor ? (
        <p>
          <Link href={`/inbox/settings/audit?${new URLSearchParams([...pageFilters, ["cursor", page.next_cursor]])}`}>Older entries</Link>
        </p>
      ) : null}
    </main>
  );
}

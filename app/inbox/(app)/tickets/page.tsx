import Link from "next/link";
import { listInboxTickets, type TicketFilters } from "@/lib/tickets/inbox-tickets";
import { viewerOf } from "@/lib/teams/access";
import { ticketListQuery } from "@/lib/contracts/inbox";
import { MAX_SEARCH_LENGTH, MAX_SEARCH_LIMIT, searchQuery } from "@/lib/contracts/search";
import { search } from "@/lib/search/search";
import type { StaffMember } from "@/lib/staff/sessions";
import { listSites } from "@/lib/sites/manage-sites";
import type { InboxWireTicket } from "@/lib/tickets/ticket-view";
import { listAssignable } from "@/lib/staff/team";
import styles from "../../inbox.module.css";
import { DataTable, type Column } from "../../_components/ui/data-table";
import { ListFilters } from "../../_components/shared/list-filters";
import { LocalTime } from "../../_components/ui/local-time";
import { SelectField, SiteSelect } from "../../_components/ui/select-field";
import { TICKET_PRIORITIES, TICKET_STATUSES } from "../../_components/tickets/ticket-options";
import { requireStaffPage } from "../../_components/shared/staff-session";

type Params = Record<string, string | string[] | undefined>;

/** The page shows open tickets unless told otherwise (the API's default is every status). */
const DEFAULTS = { status: "open" };
/** What the URL carries besides the cursor: the search and the list's filters. */
const FILTERS = ["q", "site", "status", "assignee", "priority"];
const LIST_QUERY = ["site", "status", "assignee", "priority", "cursor"];

const plainParams = (params: Params) =>
  Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== ""));

function pageFilters(params: Params) {
  const plain = Object.fromEntries(Object.entries(plainParams(params)).filter(([key]) => LIST_QUERY.includes(key)));
  const parsed = ticketListQuery.safeParse({ ...DEFAULTS, ...plain });
  return parsed.success ? parsed.data : ticketListQuery.parse(DEFAULTS);
}

/** The next page's link: this page's filters and search, and the cursor. */
function olderHref(params: Params, cursor: string): string {
  const query = new URLSearchParams(Object.entries(plainParams(params)).filter(([key]) => FILTERS.includes(key)));
  query.set("cursor", cursor);
  return `/inbox/tickets?${query.toString()}`;
}

/** The search route has no type filter: its ticket results, the newest 50 matches. */
async function searchTicketIds(member: StaffMember, q: string, site: string | undefined): Promise<string[] | null> {
  const parsed = searchQuery.safeParse({ q, ...(site ? { site } : {}), limit: String(MAX_SEARCH_LIMIT) });
  if (!parsed.success) return null;
  return (await search(member, parsed.data)).items.filter((item) => item.type === "ticket").map((item) => item.id);
}

const TICKET_COLUMNS: Column<InboxWireTicket>[] = [
  { header: "#", cell: (ticket) => ticket.number },
  {
    header: "Subject",
    cell: (ticket) => (
      <>
        <Link href={`/inbox/tickets/${encodeURIComponent(ticket.id)}`} dir="auto">
          {ticket.subject}
        </Link>
        {ticket.attachments.length > 0 ? <span className={styles.meta}> · {ticket.attachments.length} file(s)</span> : null}
      </>
    ),
  },
  {
    header: "Status",
    cell: (ticket) => (
      <span className={styles.ticketStatus} data-status={ticket.status}>
        {ticket.status}
      </span>
    ),
  },
  { header: "Assignee", cell: (ticket) => ticket.assignee?.name ?? "—" },
  { header: "From", cell: (ticket) => <span dir="auto">{ticket.name ? `${ticket.name} <${ticket.email}>` : ticket.email}</span> },
  { header: "Site", cell: (ticket) => ticket.site_name },
  { header: "Priority", cell: (ticket) => ticket.priority },
  { header: "Filed", cell: (ticket) => <LocalTime iso={ticket.created_at} /> },
];

export default async function TicketsPage({ searchParams }: { searchParams: Promise<Params> }) {
  const { member } = await requireStaffPage();
  const params = await searchParams;
  const filters: TicketFilters = pageFilters(params);
  const q = typeof params.q === "string" ? params.q.trim() : "";
  const ids = q ? await searchTicketIds(member, q, filters.site) : null;
  const [page, sites, members] = await Promise.all([listInboxTickets({ ...filters, ...(ids ? { ids } : {}) }, await viewerOf(member)), listSites(), listAssignable()]);
  const tickets = page.items;
  const narrowed = q !== "" || filters.status !== "open" || filters.assignee !== undefined || filters.priority !== undefined;
  return (
    <main id="main" className={styles.page}>
      <h1>Tickets</h1>
      <ListFilters action="/inbox/tickets" defaults={DEFAULTS}>
        <div className={styles.field}>
          <label htmlFor="ticket-search">Search tickets</label>
          <input className={styles.searchInput} id="ticket-search" name="q" type="search" defaultValue={q} maxLength={MAX_SEARCH_LENGTH} placeholder="Words or #123" />
        </div>
        <SiteSelect id="filter-site" name="site" defaultValue={filters.site ?? ""} sites={sites} />
        <SelectField id="filter-status" name="status" label="Status" defaultValue={filters.status} options={[...TICKET_STATUSES, { value: "all", label: "All" }]} />
        <SelectField
          id="filter-assignee"
          name="assignee"
          label="Assignee"
          defaultValue={filters.assignee ?? ""}
          options={[{ value: "", label: "Anyone" }, { value: "me", label: "Mine" }, { value: "none", label: "Unassigned" }, ...members.map((item) => ({ value: item.id, label: item.name }))]}
        />
        <SelectField id="filter-priority" name="priority" label="Priority" defaultValue={filters.priority ?? ""} options={[{ value: "", label: "Any" }, ...TICKET_PRIORITIES]} />
      </ListFilters>
      {tickets.length === 0 ? (
        <p className={styles.empty}>
          {narrowed ? "No tickets match these filters." : "No open tickets. Visitors leave them from the widget’s “leave a message” form."}
        </p>
      ) : (
        <DataTable caption="Tickets, newest first" narrow="cards" testId="ticket-list" rows={tickets} rowKey={(ticket) => ticket.id} columns={TICKET_COLUMNS} />
      )}
      {page.next_cursor ? (
        <p className={styles.empty}>
          <Link href={olderHref(params, page.next_cursor)}>Older tickets</Link>
        </p>
      ) : null}
    </main>
  );
}

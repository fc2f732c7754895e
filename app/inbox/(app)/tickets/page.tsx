import Link from "next/link";
import { listInboxTickets } from "@/lib/tickets/inbox-tickets";
import styles from "../../inbox.module.css";
import { LocalTime } from "../../_components/local-time";
import { requireStaffPage } from "../../_components/staff-session";

export default async function TicketsPage() {
  const { member } = await requireStaffPage();
  const tickets = await listInboxTickets({}, member.id);
  return (
    <main id="main" className={styles.page}>
      <h1>Tickets</h1>
      {tickets.length === 0 ? (
        <p className={styles.empty}>No tickets yet. Visitors leave them from the widget&apos;s “leave a message” form.</p>
      ) : (
        <table className={`${styles.table} ${styles.cardTable}`}>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Subject</th>
              <th scope="col">From</th>
              <th scope="col">Site</th>
              <th scope="col">Priority</th>
              <th scope="col">Filed</th>
            </tr>
          </thead>
          <tbody>
            {tickets.map((ticket) => (
              <tr key={ticket.id}>
                <td data-label="#">{ticket.number}</td>
                <td data-label="Subject">
                  <Link href={`/inbox/tickets/${encodeURIComponent(ticket.id)}`}>{ticket.subject}</Link>
                  {ticket.attachments.length > 0 ? <span className={styles.meta}> · {ticket.attachments.length} file(s)</span> : null}
                </td>
                <td data-label="From">{ticket.name ? `${ticket.name} <${ticket.email}>` : ticket.email}</td>
                <td data-label="Site">{ticket.site_name}</td>
                <td data-label="Priority">{ticket.priority}</td>
                <td data-label="Filed">
                  <LocalTime iso={ticket.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

import Link from "next/link";
import { SUPPRESSION_REASONS, suppressionQuery } from "@/lib/contracts/suppressions";
import { listSuppressions } from "@/lib/email/suppression/suppression-list";
import styles from "../../inbox.module.css";
import { FilterForm } from "../ui/filter-form";
import { LocalTime } from "../ui/local-time";
import { RemoveSuppressionButton, SuppressionRemovals } from "./outbox-actions";
import { SelectField } from "../ui/select-field";

// The outbox page's suppression list (owners): the addresses automatic emails are kept from, with
// a filter (reason, part of the address), the next page, and Remove on each entry.

const REASON_LABELS: Record<(typeof SUPPRESSION_REASONS)[number], string> = {
  unsubscribe: "Unsubscribed",
  hard_bounce: "Bounced permanently",
  complaint: "Reported as spam",
};

const REASON_OPTIONS = [{ value: "", label: "Any" }, ...SUPPRESSION_REASONS.map((reason) => ({ value: reason, label: REASON_LABELS[reason] }))];

export interface SuppressionFilters {
  reason?: string;
  q?: string;
  cursor?: string;
}

export async function OutboxSuppressions({ filters }: { filters: SuppressionFilters }) {
  const parsed = suppressionQuery.safeParse(Object.fromEntries(Object.entries(filters).filter(([, value]) => value)));
  const page = parsed.success ? await listSuppressions(parsed.data) : null;
  const kept = new URLSearchParams(Object.entries({ reason: filters.reason, q: filters.q }).filter(([, value]) => value) as [string, string][]);
  return (
    <section aria-labelledby="suppressions-title">
      <h2 id="suppressions-title">Suppression list</h2>
      <p className={styles.hint}>
        Addresses that ticket acknowledgements and follow-ups are no longer sent to: visitors who unsubscribed (from one site), and addresses whose
        mail server refused our email for good or reported it as spam (every site). Remove an entry once you know the mailbox works again.
      </p>
      <FilterForm action="/inbox/outbox#suppressions-title" label="Filter the suppression list" issues={parsed.success ? [] : parsed.error.issues}>
        <div className={styles.field}>
          <label htmlFor="suppression-q">Address contains</label>
          <input id="suppression-q" name="q" className={styles.input} defaultValue={filters.q} maxLength={254} />
        </div>
        <SelectField id="suppression-reason" name="reason" label="Reason" defaultValue={filters.reason ?? ""} options={REASON_OPTIONS} />
      </FilterForm>
      <SuppressionRemovals />
      {page && page.suppressions.length === 0 ? <p className={styles.empty}>{kept.size > 0 ? "No entries match." : "No address is suppressed."}</p> : null}
      {page && page.suppressions.length > 0 ? (
        <ul className={styles.cards} data-testid="suppressions">
          {page.suppressions.map((entry) => {
            // Only the address's hash is kept when the unsubscribe link's email had been pruned.
            const address = entry.address ?? "An address no longer kept (unsubscribed from an old email)";
            return (
              <li key={entry.id} className={styles.card} data-suppression={entry.id}>
                <div className={styles.deliveryLine}>
                  <strong className={styles.breakAnywhere}>{address}</strong>
                  <span className={styles.statusText}>{REASON_LABELS[entry.reason]}</span>
                </div>
                <p className={styles.meta}>
                  {entry.site ? `Site ${entry.site}` : "Every site"} · <LocalTime iso={entry.created_at} full />
                </p>
                <RemoveSuppressionButton id={entry.id} address={entry.address ?? "this address"} />
              </li>
            );
          })}
        </ul>
      ) : null}
      {page?.next_cursor ? (
        <p>
          <Link href={`/inbox/outbox?${new URLSearchParams([...kept, ["cursor", page.next_cursor]])}#suppressions-title`}>More entries</Link>
        </p>
      ) : null}
    </section>
  );
}

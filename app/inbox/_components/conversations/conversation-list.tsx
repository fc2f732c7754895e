import Link from "next/link";
import { listInboxConversations } from "@/lib/conversations/inbox-conversations";
import { conversationListQuery } from "@/lib/contracts/inbox";
import { listLabels } from "@/lib/labels/labels";
import type { StaffMember } from "@/lib/staff/sessions";
import { listSites } from "@/lib/sites/manage-sites";
import styles from "../../inbox.module.css";
import { VisitorAvatar } from "./visitor-card";
import { LabelChips } from "../shared/label-chips";
import { ListFilters } from "../shared/list-filters";
import { LocalTime } from "../ui/local-time";
import { RATING_FACES } from "./ratings";
import { SelectField, SiteSelect, type SelectOption } from "../ui/select-field";
import { VerifiedMark } from "./verified-mark";
import { BulkSelect } from "./bulk-select";
import { WaitingFor } from "./waiting-for";
import { SlaDue } from "./sla-due";
import { listAssignable } from "@/lib/staff/team";
import { listTeams } from "@/lib/teams/teams";
import { EmptyList } from "./empty-list";
import { isView, VIEWS, type ViewKey } from "../shared/inbox-views";

export type ListParams = Record<string, string | string[] | undefined>;

/** The list's filters from the page's query; anything unusable falls back to the defaults. */
export function listFilters(params: ListParams) {
  const plain = Object.fromEntries(Object.entries(params).filter(([key, value]) => typeof value === "string" && value !== "" && ["site", "status", "assigned", "label", "team", "mentioned", "sort", "sla", "cursor"].includes(key)));
  const parsed = conversationListQuery.safeParse(plain);
  return parsed.success ? parsed.data : conversationListQuery.parse({});
}

export function filterQuery(filters: ReturnType<typeof listFilters>, extra: Record<string, string> = {}) {
  const query = new URLSearchParams();
  if (filters.site) query.set("site", filters.site);
  if (filters.status !== "open") query.set("status", filters.status);
  if (filters.assigned !== "all") query.set("assigned", filters.assigned);
  if (filters.label) query.set("label", filters.label);
  if (filters.team) query.set("team", filters.team);
  if (filters.sort !== "newest") query.set("sort", filters.sort);
  if (filters.sla) query.set("sla", filters.sla);
  if (filters.mentioned) query.set("mentioned", filters.mentioned);
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** Whether a filter beyond the default view (open, anyone, any label) may be hiding conversations; a site is a scope. */
const narrowed = (filters: ReturnType<typeof listFilters>) =>
  filters.status !== "open" ||
  filters.assigned !== "all" ||
  filters.label !== undefined ||
  filters.team !== undefined ||
  filters.sla !== undefined ||
  filters.mentioned !== undefined;

/** The rail's view the filters are exactly (label and SLA narrow any view), or null. */
function viewOf(filters: ReturnType<typeof listFilters>, teams: { id: string; name: string }[]): { key: ViewKey | "team"; label: string } | null {
  if (filters.label !== undefined || filters.sla !== undefined) return null;
  const current = (key: string) => (filters as Record<string, unknown>)[key] as string | undefined;
  const view = VIEWS.find((candidate) => isView(current, candidate.query));
  if (view) return view;
  const team = teams.find((candidate) => isView(current, { team: candidate.id }));
  return team ? { key: "team", label: team.name } : null;
}

const options = (labels: Record<string, string>): SelectOption[] => Object.entries(labels).map(([value, label]) => ({ value, label }));
const STATUS_OPTIONS = options({ open: "Open", snoozed: "Snoozed", closed: "Closed", all: "All" });
const ASSIGNED_OPTIONS = options({ all: "Anyone", me: "Mine", unassigned: "Unassigned" });
const SORT_OPTIONS = options({ newest: "Newest activity", waiting: "Waiting longest", sla: "SLA due soonest" });
const SLA_OPTIONS = options({ "": "Any SLA", breached: "SLA breached", due_soon: "Due within 15 min" });

/** The last public message with who wrote it ("Andy Agent: It ships today."). */
/** The last message, its author first; the body in its own direction (an Arabic reply after an English name). */
const previewOf = (item: { last_message: { body: string; author_name: string } | null }) =>
  item.last_message ? (
    <>
      <span dir="auto">{item.last_message.author_name}</span>: <span dir="auto">{item.last_message.body}</span>
    </>
  ) : (
    "No messages yet"
  );

export async function ConversationList({ member, params, activeId }: { member: StaffMember; params: ListParams; activeId?: string }) {
  const filters = listFilters(params);
  const [page, sites, labels, members, teams] = await Promise.all([listInboxConversations(member, filters), listSites(), listLabels(), listAssignable(), listTeams()]);
  const keep = filterQuery(filters);
  const view = viewOf(filters, teams);
  return (
    <section aria-labelledby="list-title">
      <h2 id="list-title" className={styles.listTitle}>
        <span className={styles.srOnly}>Conversations: </span>
        {view ? view.label : "Filtered conversations"}
      </h2>
      {/* Keyed by the filters: a rail view changes them without the form, whose selects are uncontrolled. */}
      <ListFilters key={keep}>
        {/* The Mentions view has no select of its own: a changed filter keeps it. */}
        {filters.mentioned ? <input type="hidden" name="mentioned" value={filters.mentioned} /> : null}
        <SiteSelect id="filter-site" name="site" defaultValue={filters.site ?? ""} sites={sites} />
        <SelectField id="filter-status" name="status" label="Status" defaultValue={filters.status} options={STATUS_OPTIONS} />
        <SelectField id="filter-assigned" name="assigned" label="Assigned" defaultValue={filters.assigned} options={ASSIGNED_OPTIONS} />
        <SelectField id="filter-sort" name="sort" label="Sort" defaultValue={filters.sort} options={SORT_OPTIONS} />
        <SelectField id="filter-sla" name="sla" label="SLA" defaultValue={filters.sla ?? ""} options={SLA_OPTIONS} />
        {labels.length > 0 ? (
          <SelectField id="filter-label" name="label" label="Label" defaultValue={filters.label ?? ""} options={[{ value: "", label: "Any label" }, ...labels.map((label) => ({ value: label.id, label: label.name }))]} />
        ) : null}
        {teams.length > 0 ? (
          <SelectField
            id="filter-team"
            name="team"
            label="Team"
            defaultValue={filters.team ?? ""}
            options={[{ value: "", label: "Any team" }, { value: "none", label: "No team" }, ...teams.map((team) => ({ value: team.id, label: team.name }))]}
          />
        ) : null}
      </ListFilters>
      {page.items.length === 0 ? (
        <EmptyList view={view?.key ?? (narrowed(filters) ? null : "all")} owner={member.role === "owner"} />
      ) : (
        <BulkSelect memberId={member.id} members={members} labels={labels}>
          <ul className={styles.list} data-testid="conversation-list">
            {page.items.map((item) => (
              <li key={item.id} className={`${styles.item} ${item.unread_count > 0 ? styles.unread : ""}`} data-conversation={item.id}>
                <input type="checkbox" name="bulk" value={item.id} aria-label={`Select ${item.visitor_display_name}`} />
                <Link href={`/inbox/conversations/${encodeURIComponent(item.id)}${keep}`} aria-current={item.id === activeId ? "page" : undefined}>
                  <span className={styles.itemTop}>
                    <span className={styles.itemName}>
                      <VisitorAvatar name={item.visitor_display_name} color={item.visitor_avatar_color} />{" "}
                      <span dir="auto">{item.visitor_display_name}</span>
                      {item.identity_verified ? (
                        <>
                          {" "}
                          <VerifiedMark />
                        </>
                      ) : null}
                      {item.unread_count > 0 ? (
                        <>
                          {" "}
                          <span className={styles.badge} aria-label={`${item.unread_count} unread`} data-testid="unread-count">
                            {item.unread_count}
                          </span>
                        </>
                      ) : null}
                    </span>
                    <span className={styles.time}>
                      <LocalTime iso={item.last_activity_at} />
                    </span>
                  </span>
                  <p className={styles.preview}>{previewOf(item)}</p>
                  <LabelChips labels={item.labels} />
                  {item.status !== "closed" && item.sla ? (
                    <span className={styles.meta}>
                      <SlaDue sla={item.sla} />{" "}
                    </span>
                  ) : null}
                  <span className={styles.meta}>
                    <span className={item.status === "closed" ? styles.statusClosed : styles.statusOpen}>
                      {item.status === "closed" ? "Closed" : item.status === "snoozed" ? "Snoozed" : "Open"}
                    </span>
                    {item.status === "snoozed" && item.snoozed_until ? (
                      <span data-testid="snoozed-until">
                        {" until "}
                        <LocalTime iso={item.snoozed_until} full />
                      </span>
                    ) : null}
                    {item.status !== "closed" && item.waiting_since ? (
                      <>
                        {" · "}
                        <WaitingFor since={item.waiting_since} />
                      </>
                    ) : null}
                    {" · "}
                    {item.site_name}
                    {item.team ? <span data-testid="team-name">{` · ${item.team.name}`}</span> : null}
                    {item.assigned_member_name ? ` · ${item.assigned_member_name}` : " · unassigned"}
                    {item.rating ? (
                      <span className={styles.ratingBadge} data-testid="rating-badge">
                        {" · "}
                        <span aria-hidden="true">{RATING_FACES[item.rating.score]} </span>
                        Rated {item.rating.score}/5
                      </span>
                    ) : null}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </BulkSelect>
      )}
      {page.next_cursor ? (
        <p className={styles.empty}>
          <Link href={`/inbox${filterQuery(filters, { cursor: page.next_cursor })}`}>Older conversations</Link>
        </p>
      ) : null}
    </section>
  );
}

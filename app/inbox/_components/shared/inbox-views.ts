// The rail's views (docs/inbox.md, "Views"): each is a preset of the list's filters, so a view is a
// plain URL (shareable, kept by Back) and the filter selects show what it set. Shared by the rail
// (client) and the list's empty states (server).

export type ViewKey = "mine" | "unassigned" | "mentions" | "snoozed" | "all";
type ViewQuery = Partial<Record<"status" | "assigned" | "mentioned" | "team", string>>;

export const VIEWS: { key: ViewKey; label: string; query: ViewQuery }[] = [
  { key: "mine", label: "Mine", query: { assigned: "me" } },
  { key: "unassigned", label: "Unassigned", query: { assigned: "unassigned" } },
  { key: "mentions", label: "Mentions", query: { mentioned: "me" } },
  { key: "snoozed", label: "Snoozed", query: { status: "snoozed" } },
  { key: "all", label: "All", query: {} },
];

const VIEW_KEYS = ["status", "assigned", "mentioned", "team"] as const;
const DEFAULTS: ViewQuery = { status: "open", assigned: "all" };

export function viewHref(query: ViewQuery): string {
  const text = new URLSearchParams(query as Record<string, string>).toString();
  return `/inbox${text ? `?${text}` : ""}`;
}

/** Whether the list's current filters (site, label, SLA and sort aside) are exactly the view's. */
export function isView(current: (key: string) => string | null | undefined, query: ViewQuery): boolean {
  return VIEW_KEYS.every((key) => (current(key) || DEFAULTS[key] || "") === (query[key] ?? DEFAULTS[key] ?? ""));
}

/** A capped count as the rail shows it: "99+" once it reached the cap. */
export const shownCount = (count: number, cap: number): string => (count >= cap ? `${cap - 1}+` : String(count));

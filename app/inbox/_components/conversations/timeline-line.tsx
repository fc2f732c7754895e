"use client";

import styles from "../../inbox.module.css";

// A staff-only timeline event (lib/conversations/timeline.ts) as one centred line of the thread:
// "Ada assigned this to Ben", "Snoozed until Mon 09:00 by Ada". Times are in the reader's zone,
// which only the browser knows.

const when = (iso: unknown) =>
  typeof iso === "string" ? new Date(iso).toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }) : "later";
const list = (value: unknown) => (Array.isArray(value) ? value.filter((item) => typeof item === "string").join(", ") : "");

/** A rule's action names the rule (docs/rules.md). */
const ruleName = (details: Record<string, unknown>) => {
  const rule = details.rule as { name?: unknown } | undefined;
  return typeof rule?.name === "string" ? `Rule “${rule.name}”` : null;
};

export function describeTimelineEvent(event: string, details: Record<string, unknown>, actor: string | null): string {
  const who = actor ?? ruleName(details) ?? "Parley";
  switch (event) {
    case "assigned":
    case "reassigned":
      if (typeof details.assigneeName !== "string") return `${who} unassigned this`;
      // Round robin and the reassign sweep act for nobody: they say what moved it.
      if (event === "reassigned") return `Reassigned to ${details.assigneeName}: no reply in time`;
      return details.by === "round_robin" ? `Assigned to ${details.assigneeName} (round robin)` : `${who} assigned this to ${details.assigneeName}`;
    case "labelled": {
      const added = list(details.added);
      const removed = list(details.removed);
      return [added ? `${who} added ${added}` : "", removed ? `${added ? "removed" : `${who} removed`} ${removed}` : ""].filter(Boolean).join(", ") || `${who} changed the labels`;
    }
    case "snoozed":
      return `Snoozed until ${when(details.until)} by ${who}`;
    case "unsnoozed":
      return details.reason === "visitor_message" ? "Unsnoozed: the visitor wrote" : details.reason === "member" ? `${who} unsnoozed this` : "Unsnoozed: its time came";
    case "rated":
      return `The visitor rated this ${String(details.score ?? "?")} of 5`;
    case "team_changed":
      return typeof details.teamName === "string" ? `${who} moved this to ${details.teamName}` : `${who} took this out of ${String(details.previousTeamName ?? "its team")}`;
    case "attributes_changed": {
      const changes = Array.isArray(details.changes) ? (details.changes as { label?: unknown; to?: unknown }[]) : [];
      const parts = changes.map((change) => (change.to === null || change.to === undefined ? `removed ${String(change.label)}` : `set ${String(change.label)} to ${String(change.to)}`));
      return parts.length > 0 ? `${who} ${parts.join(", ")}` : `${who} changed the attributes`;
    }
    case "sla_breached": {
      const kind = { first_response: "First response", next_response: "Next response", resolution: "Resolution" }[String(details.kind)] ?? "SLA target";
      return `${kind} SLA breached: ${String(details.why ?? "")}`;
    }
    default:
      return event;
  }
}

export function TimelineLine({ event, details, actor, at }: { event: string; details: Record<string, unknown>; actor: string | null; at: string }) {
  return (
    <p className={styles.timelineLine} data-testid="timeline-event" data-event={event}>
      <span suppressHydrationWarning>{describeTimelineEvent(event, details, actor)}</span>
      {" · "}
      <time dateTime={at} suppressHydrationWarning>
        {new Date(at).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })}
      </time>
    </p>
  );
}

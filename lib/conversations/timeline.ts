import { randomUUID } from "node:crypto";
import { queryPrepared, type PreparedStatement, type PrismaClient } from "../db/client";
import { AppError } from "../core/errors";
import { actingRule } from "../core/acting-rule";

// Staff-only timeline events (decisions.md round 3, "Timeline events and close/reopen"): stored like
// a note — kind `note`, the next note number, outside the public sequence the visitor reads — by
// the system, with `event` set and the facts in `details`. Notes never reach the visitor's reads,
// webhooks or emails (their trigger and statements let through only what isVisibleToVisitor in
// lib/contracts/events.ts does). The inbox draws each as a centred line from `event` and `details`
// (times in the member's zone); `body` is a plain English summary for any other reader.
// `unsnoozed` is also written by a trigger (migration 20261128060000), whichever path wakes the
// conversation.

export const TIMELINE_EVENTS = ["assigned", "labelled", "snoozed", "unsnoozed", "reassigned", "rated", "team_changed", "attributes_changed", "sla_breached"] as const;
export type TimelineEvent = (typeof TIMELINE_EVENTS)[number];

export interface TimelineDetails {
  actorMemberId?: string | null;
  /** The rule that did it (docs/rules.md), set from the acting rule when a rule's action runs. */
  rule?: { id: string; name: string };
  [key: string]: unknown;
}

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Values: id, conversation id, client id, actor member id, body, event, details (json). No row: no such conversation. */
const APPEND_TIMELINE_EVENT: PreparedStatement = {
  name: "append_timeline_event",
  text: `
    WITH bumped AS (
      UPDATE conversations SET last_note_number = last_note_number + 1 WHERE id = $2
      RETURNING last_sequence, last_note_number
    )
    INSERT INTO messages (id, conversation_id, sequence, note_number, client_id, author_type, author_id, member_id, kind, body, event, details)
    SELECT $1, $2, bumped.last_sequence, bumped.last_note_number, $3, 'system', COALESCE($4::text, 'system'), $4::text, 'note', $5, $6, $7::jsonb
    FROM bumped
    RETURNING id`,
};

/** Appends a staff-only event to the conversation's timeline (in `tx` when given, so it commits with the change it records). */
export async function appendTimelineEvent(conversationId: string, event: TimelineEvent, given: TimelineDetails, tx?: Transaction): Promise<string> {
  const rule = actingRule();
  const details = rule ? { ...given, rule } : given;
  const values = [
    randomUUID(),
    conversationId,
    `event_${randomUUID()}`,
    details.actorMemberId ?? null,
    summarize(event, details),
    event,
    JSON.stringify({ ...details, actorMemberId: details.actorMemberId ?? null }),
  ];
  const rows = tx
    ? await tx.$queryRawUnsafe<{ id: string }[]>(APPEND_TIMELINE_EVENT.text, ...values)
    : await queryPrepared<{ id: string }>(APPEND_TIMELINE_EVENT, values);
  if (!rows[0]) throw new AppError("conversation_not_found", "No conversation has this identifier.");
  return rows[0].id;
}

const text = (value: unknown) => (typeof value === "string" ? value : null);
const names = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

/** The stored `body`: what happened in a few words (the inbox writes its own line from `details`). */
export function summarize(event: TimelineEvent, details: TimelineDetails): string {
  switch (event) {
    case "assigned":
    case "reassigned": {
      const assignee = text(details.assigneeName);
      return assignee ? `${event === "assigned" ? "Assigned" : "Reassigned"} to ${assignee}` : "Unassigned";
    }
    case "labelled": {
      const changes = [...names(details.added).map((name) => `+${name}`), ...names(details.removed).map((name) => `-${name}`)];
      return changes.length > 0 ? `Labels ${changes.join(" ")}` : "Labels changed";
    }
    case "snoozed":
      return text(details.until) ? `Snoozed until ${details.until}` : "Snoozed";
    case "unsnoozed":
      return "Unsnoozed";
    case "rated":
      return typeof details.score === "number" ? `Rated ${details.score} of 5` : "Rated";
    case "team_changed": {
      const team = text(details.teamName);
      return team ? `Moved to ${team}` : "Moved out of its team";
    }
    case "attributes_changed": {
      const changes = Array.isArray(details.changes) ? (details.changes as { label?: unknown; to?: unknown }[]) : [];
      const parts = changes.map((change) => `${text(change.label) ?? "?"}: ${change.to === null || change.to === undefined ? "removed" : String(change.to)}`);
      return parts.length > 0 ? `Attributes ${parts.join(", ")}`.slice(0, 500) : "Attributes changed";
    }
    case "sla_breached":
      return `SLA ${(text(details.kind) ?? "target").replace("_", " ")} breached: ${text(details.why) ?? ""}`.trim();
  }
}

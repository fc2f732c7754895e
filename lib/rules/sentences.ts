import type { RuleAction, RuleCondition, RuleEvent } from "../contracts/rules";

// A rule in words (docs/rules.md): "When a conversation starts and the page is /pricing, add label
// Sales and assign team Sales". Pure: the dry run's answer and the owners' page both use it, with
// the names of what the rule refers to (teams, members, labels, saved replies, sites) by id.

export type Names = ReadonlyMap<string, string>;

const EVENT_WORDS: Record<RuleEvent, string> = {
  "conversation.created": "a conversation starts",
  "message.created": "a visitor sends a message",
  "conversation.closed": "a conversation is closed",
  "conversation.reopened": "a conversation is reopened",
  "conversation.idle": "a conversation is quiet",
  "sla.breached": "an SLA is breached",
};

const FIELD_WORDS: Record<string, string> = {
  site: "the site",
  team: "the team",
  label: "the labels",
  status: "the status",
  page_url: "the page",
  "message.body": "the message",
  "visitor.email": "the visitor's email",
  locale: "the language",
  within_hours: "inside service hours",
};

const OP_WORDS: Record<string, string> = {
  eq: "is",
  neq: "is not",
  in: "is one of",
  contains: "contains",
  starts_with: "starts with",
  glob: "matches",
  gt: "is after/above",
  lt: "is before/below",
  set: "is set",
  not_set: "is not set",
};

const named = (names: Names, id: string) => names.get(id) ?? id;

export function describeEvent(event: RuleEvent, idleMinutes: number | null): string {
  return event === "conversation.idle" ? `${EVENT_WORDS[event]} for ${idleMinutes ?? "?"} min` : EVENT_WORDS[event];
}

export function describeCondition(condition: RuleCondition, names: Names = new Map()): string {
  const field = FIELD_WORDS[condition.field] ?? `attribute ${condition.field.slice("attr.".length)}`;
  if (condition.field === "within_hours") return condition.value === (condition.op === "eq") ? "inside service hours" : "outside service hours";
  if (condition.field === "label") {
    const value = Array.isArray(condition.value) ? condition.value.map((id) => named(names, String(id))).join(" or ") : named(names, String(condition.value));
    return { eq: `it has label ${value}`, neq: `it has no label ${value}`, in: `it has label ${value}`, set: "it has a label", not_set: "it has no label" }[condition.op as "eq"] ?? field;
  }
  if (condition.op === "set" || condition.op === "not_set") return `${field} ${OP_WORDS[condition.op]}`;
  const shown = (value: unknown) => (condition.field === "team" || condition.field === "site" ? named(names, String(value)) : String(value));
  const value = Array.isArray(condition.value) ? condition.value.map(shown).join(", ") : shown(condition.value);
  return `${field} ${OP_WORDS[condition.op]} ${value}`;
}

export function describeAction(action: RuleAction, names: Names = new Map()): string {
  switch (action.type) {
    case "assign_team":
      return `assign team ${named(names, action.team_id)}`;
    case "assign_member":
      return `assign ${named(names, action.member_id)}`;
    case "add_label":
      return `add label ${named(names, action.label_id)}`;
    case "remove_label":
      return `remove label ${named(names, action.label_id)}`;
    case "snooze":
      return `snooze for ${action.minutes} min`;
    case "close":
      return "close it";
    case "send_saved_reply":
      return `send the saved reply ${named(names, action.saved_reply_id)}`;
    case "add_note":
      return `add a note "${action.body.length > 40 ? `${action.body.slice(0, 40)}…` : action.body}"`;
    case "set_attribute":
      return `set ${action.key} to ${String(action.value)}`;
  }
}

const joined = (parts: string[]) => (parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`);

/** The whole rule as one sentence. */
export function describeRule(rule: { event: RuleEvent; idle_minutes: number | null; conditions: RuleCondition[]; actions: RuleAction[] }, names: Names = new Map()): string {
  const when = `When ${describeEvent(rule.event, rule.idle_minutes)}`;
  const conditions = rule.conditions.length ? ` and ${joined(rule.conditions.map((condition) => describeCondition(condition, names)))}` : "";
  return `${when}${conditions}, ${rule.actions.length ? joined(rule.actions.map((action) => describeAction(action, names))) : "do nothing"}`;
}

import { FIELD_KINDS, type FieldKind, type RuleCondition } from "../contracts/rules";
import type { ConversationFacts } from "./facts";
import { globMatch } from "./glob";

// Checking a rule's conditions (docs/rules.md, "Conditions"): every condition must hold. Text is
// compared without case; `glob` goes through the linear matcher (./glob.ts), never a regular
// expression. A `page_url` value starting with `/` is compared with the page's path (and query),
// so "/pricing" means the pricing page on whichever host.

type Scalar = string | number | boolean;

/** Whether one condition holds for the facts; `kinds` gives attribute fields their kind. */
export function conditionHolds(condition: RuleCondition, facts: ConversationFacts, kinds: ReadonlyMap<string, FieldKind> = new Map()): boolean {
  const kind = (FIELD_KINDS as Record<string, FieldKind>)[condition.field] ?? kinds.get(condition.field);
  if (!kind) return false; // an attribute deleted since the rule was saved: nothing to compare
  const { op } = condition;
  const value = condition.value ?? null;
  const fact = factOf(condition.field, facts, value);
  if (kind === "ids") {
    const held = Array.isArray(fact) ? (fact as string[]) : [];
    if (op === "set") return held.length > 0;
    if (op === "not_set") return held.length === 0;
    if (op === "eq") return held.includes(String(value));
    if (op === "neq") return !held.includes(String(value));
    if (op === "in") return Array.isArray(value) && value.some((item) => held.includes(String(item)));
    return false;
  }
  const present = fact !== null && fact !== undefined && fact !== "";
  if (op === "set") return present;
  if (op === "not_set") return !present;
  if (op === "neq") return !equal(kind, fact, value as Scalar);
  if (op === "eq") return present && equal(kind, fact, value as Scalar);
  if (op === "in") return present && Array.isArray(value) && value.some((item) => equal(kind, fact, item));
  if (!present || typeof value !== "string" && typeof value !== "number") return false;
  switch (op) {
    case "contains":
      return String(fact).toLowerCase().includes(String(value).toLowerCase());
    case "starts_with":
      return String(fact).toLowerCase().startsWith(String(value).toLowerCase());
    case "glob":
      return globMatch(String(value), String(fact));
    case "gt":
      return compare(kind, fact, value) > 0;
    case "lt":
      return compare(kind, fact, value) < 0;
  }
  return false;
}

/** Each condition's outcome, in order. */
export const checkConditions = (conditions: RuleCondition[], facts: ConversationFacts, kinds?: ReadonlyMap<string, FieldKind>) =>
  conditions.map((condition) => conditionHolds(condition, facts, kinds));

function factOf(field: string, facts: ConversationFacts, value: RuleCondition["value"] | null): unknown {
  switch (field) {
    case "site":
      return facts.site;
    case "team":
      return facts.team;
    case "label":
      return facts.labels;
    case "status":
      return facts.status;
    case "page_url":
      return pageFact(facts.pageUrl, value);
    case "message.body":
      return facts.messageBody;
    case "visitor.email":
      return facts.visitorEmail;
    case "locale":
      return facts.locale;
    case "within_hours":
      return facts.withinHours;
    default:
      return facts.attributes[field.slice("attr.".length)] ?? null;
  }
}

/** The page's path and query when the condition's value is a path, else the whole URL. */
function pageFact(url: string | null, value: RuleCondition["value"] | null): string | null {
  if (url === null) return null;
  const probe = Array.isArray(value) ? value[0] : value;
  if (typeof probe !== "string" || !probe.startsWith("/")) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

function equal(kind: FieldKind, fact: unknown, value: Scalar): boolean {
  if (fact === null || fact === undefined) return false;
  if (kind === "text") return String(fact).toLowerCase() === String(value).toLowerCase();
  if (kind === "number" || kind === "date") return compare(kind, fact, value) === 0;
  return fact === value;
}

function compare(kind: FieldKind, fact: unknown, value: Scalar): number {
  const left = kind === "date" ? Date.parse(String(fact)) : Number(fact);
  const right = kind === "date" ? Date.parse(String(value)) : Number(value);
  if (Number.isNaN(left) || Number.isNaN(right)) return Number.NaN;
  return left - right;
}

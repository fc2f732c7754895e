import { z } from "zod";
import { clientId, displayName, requiredText, singleLineOptionalText, singleLineText } from "../core/validation/strings";
import { isoTime, named } from "./wire";
import { MESSAGE_CREATED } from "./events";

// Rules (decisions.md, round 4, "Rules"; docs/rules.md): owners write them; an event, typed
// conditions (all must hold) and actions, run in list order. What a field's type allows is fixed
// here, so an operator that does not fit its field is a 400 when the rule is saved. Attribute
// fields (`attr.<key>`) take their type from the attribute definitions: the service checks them.

export const MAX_RULE_NAME = 80;
export const MAX_CONDITIONS = 20;
export const MAX_ACTIONS = 20;
/** A text value (or a pattern) of a condition. */
export const MAX_CONDITION_TEXT = 500;
/** At most this many values in an `in`. */
export const MAX_IN_VALUES = 50;
export const MAX_NOTE_BODY = 5000;
/** conversation.idle: 1 minute to 30 days. */
export const MAX_IDLE_MINUTES = 43_200;
/** A rule's snooze: at most 90 days (as a member's). */
export const MAX_SNOOZE_MINUTES = 129_600;
/** GET /inbox/rules/{id}/runs answers at most this many, newest first. */
export const RUNS_KEPT = 100;

export const RULE_EVENTS = ["conversation.created", MESSAGE_CREATED, "conversation.closed", "conversation.reopened", "conversation.idle", "sla.breached"] as const;
export type RuleEvent = (typeof RULE_EVENTS)[number];

export const RULE_OPS = ["eq", "neq", "in", "contains", "starts_with", "glob", "gt", "lt", "set", "not_set"] as const;
export type RuleOp = (typeof RULE_OPS)[number];

/** How a field's value is compared: each kind allows some operators. */
export type FieldKind = "id" | "ids" | "status" | "text" | "boolean" | "number" | "date";

export const OPS_BY_KIND: Record<FieldKind, readonly RuleOp[]> = {
  id: ["eq", "neq", "in", "set", "not_set"],
  ids: ["eq", "neq", "in", "set", "not_set"], // a label: eq = has it, neq = has it not, in = has one of them
  status: ["eq", "neq", "in"],
  text: ["eq", "neq", "in", "contains", "starts_with", "glob", "set", "not_set"],
  boolean: ["eq", "neq"],
  number: ["eq", "neq", "gt", "lt", "set", "not_set"],
  date: ["eq", "neq", "gt", "lt", "set", "not_set"],
};

/** The built-in fields and their kinds; `attr.<key>` fields are typed by their attribute. */
export const FIELD_KINDS = {
  site: "id",
  team: "id",
  label: "ids",
  status: "status",
  page_url: "text",
  "message.body": "text",
  "visitor.email": "text",
  locale: "text",
  within_hours: "boolean",
} as const satisfies Record<string, FieldKind>;
export type BuiltInField = keyof typeof FIELD_KINDS;

export const CONVERSATION_STATUSES = ["open", "snoozed", "closed"] as const;
export const ATTRIBUTE_FIELD = /^attr\.[a-z0-9_]{1,40}$/;

const conditionText = singleLineText(MAX_CONDITION_TEXT);
const conditionScalar = z.union([conditionText, z.number().finite(), z.boolean()]);

const conditionValue = z.union([conditionScalar, z.array(conditionScalar).min(1).max(MAX_IN_VALUES)]).nullable().optional();

export const ruleCondition = z.strictObject({
  field: z.string().max(50).refine((field) => Object.hasOwn(FIELD_KINDS, field) || ATTRIBUTE_FIELD.test(field), "must be one of site, team, label, status, page_url, message.body, visitor.email, locale, within_hours, attr.<key>"),
  op: z.enum(RULE_OPS),
  value: conditionValue,
});
export type RuleCondition = z.output<typeof ruleCondition>;

/**
 * Whether `op` and `value` fit a field of `kind`: a problem in words, or null. Shared by the
 * contract (built-in fields) and the service (attribute fields, once their type is known).
 */
export function conditionProblem(kind: FieldKind, condition: Pick<RuleCondition, "op" | "value">): { path: "op" | "value"; problem: string } | null {
  const { op, value } = condition;
  if (!OPS_BY_KIND[kind].includes(op)) return { path: "op", problem: `does not fit this field (its operators: ${OPS_BY_KIND[kind].join(", ")})` };
  if (op === "set" || op === "not_set") return value === undefined || value === null ? null : { path: "value", problem: `must be absent for ${op}` };
  if (op === "in") {
    if (!Array.isArray(value)) return { path: "value", problem: "must be a list of values for in" };
    return value.every((item) => scalarFits(kind, item)) ? null : { path: "value", problem: `every value must be ${expected(kind)}` };
  }
  if (Array.isArray(value) || value === undefined || value === null) return { path: "value", problem: `must be ${expected(kind)}` };
  if (op === "contains" || op === "starts_with" || op === "glob") return typeof value === "string" ? null : { path: "value", problem: "must be text" };
  return scalarFits(kind, value) ? null : { path: "value", problem: `must be ${expected(kind)}` };
}

function scalarFits(kind: FieldKind, value: string | number | boolean): boolean {
  switch (kind) {
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number";
    case "date":
      return typeof value === "string" && !Number.isNaN(Date.parse(value));
    case "status":
      return typeof value === "string" && (CONVERSATION_STATUSES as readonly string[]).includes(value);
    default:
      return typeof value === "string";
  }
}

const expected = (kind: FieldKind) =>
  ({ boolean: "true or false", number: "a number", date: "a date (ISO 8601)", status: "open, snoozed or closed", id: "an id", ids: "an id", text: "text" })[kind];

const refId = clientId(100);

export const ruleAction = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("assign_team"), team_id: refId }),
  z.strictObject({ type: z.literal("assign_member"), member_id: refId }),
  z.strictObject({ type: z.literal("add_label"), label_id: refId }),
  z.strictObject({ type: z.literal("remove_label"), label_id: refId }),
  z.strictObject({ type: z.literal("snooze"), minutes: z.int().min(1).max(MAX_SNOOZE_MINUTES) }),
  z.strictObject({ type: z.literal("close") }),
  z.strictObject({ type: z.literal("send_saved_reply"), saved_reply_id: refId }),
  z.strictObject({ type: z.literal("add_note"), body: requiredText(MAX_NOTE_BODY) }),
  z.strictObject({ type: z.literal("set_attribute"), key: z.string().regex(/^[a-z0-9_]{1,40}$/, "must be an attribute key (a-z 0-9 _)"), value: z.union([singleLineOptionalText(1000), z.number().finite(), z.boolean()]).nullable() }),
]);
export type RuleAction = z.output<typeof ruleAction>;
export const RULE_ACTION_TYPES = ["assign_team", "assign_member", "add_label", "remove_label", "snooze", "close", "send_saved_reply", "add_note", "set_attribute"] as const;

const conditions = z.array(ruleCondition).max(MAX_CONDITIONS);
const actions = z.array(ruleAction).max(MAX_ACTIONS);
const idleMinutes = z.int().min(1).max(MAX_IDLE_MINUTES);

/** The built-in fields' operators and values, checked with the rest of the body (attributes: by the service). */
function checkConditions(list: RuleCondition[] | undefined, context: z.RefinementCtx) {
  list?.forEach((condition, index) => {
    const kind = (FIELD_KINDS as Record<string, FieldKind>)[condition.field];
    if (!kind) return;
    const problem = conditionProblem(kind, condition);
    if (problem) context.addIssue({ code: "custom", path: ["conditions", index, problem.path], message: problem.problem });
  });
}

function checkIdle(body: { event?: RuleEvent; idle_minutes?: number | null }, context: z.RefinementCtx, creating: boolean) {
  if (body.event === "conversation.idle" && (body.idle_minutes === undefined || body.idle_minutes === null) && creating) {
    context.addIssue({ code: "custom", path: ["idle_minutes"], message: "is required for conversation.idle" });
  }
  if (body.event !== undefined && body.event !== "conversation.idle" && body.idle_minutes !== undefined && body.idle_minutes !== null) {
    context.addIssue({ code: "custom", path: ["idle_minutes"], message: "is only for conversation.idle" });
  }
}

const ruleFields = {
  name: displayName(MAX_RULE_NAME),
  enabled: z.boolean(),
  event: z.enum(RULE_EVENTS),
  idle_minutes: idleMinutes.nullable(),
  conditions,
  actions,
};

/** POST /inbox/rules: appended to the end of the list. */
export const createRuleBody = z
  .strictObject({ ...ruleFields, enabled: ruleFields.enabled.default(true), idle_minutes: ruleFields.idle_minutes.optional(), conditions: conditions.default([]) })
  .superRefine((body, context) => {
    checkConditions(body.conditions, context);
    checkIdle(body, context, true);
  });
export type CreateRuleInput = z.output<typeof createRuleBody>;

/** PATCH /inbox/rules/{id}: `position` (0 = first) moves it in the list. */
export const updateRuleBody = z
  .strictObject({
    name: ruleFields.name.optional(),
    enabled: ruleFields.enabled.optional(),
    event: ruleFields.event.optional(),
    idle_minutes: ruleFields.idle_minutes.optional(),
    conditions: conditions.optional(),
    actions: actions.optional(),
    position: z.int().min(0).max(10_000).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "must change at least one field")
  .superRefine((body, context) => {
    checkConditions(body.conditions, context);
    checkIdle(body, context, false);
  });
export type UpdateRuleInput = z.output<typeof updateRuleBody>;

/** POST /inbox/rules/test: what the rule would do to the conversation, changing nothing. */
export const testRuleBody = z.strictObject({ rule: createRuleBody, conversation_id: refId });
export type TestRuleInput = z.output<typeof testRuleBody>;

const wireCondition = z.object({ field: z.string(), op: z.enum(RULE_OPS), value: conditionValue });

export const rule = named(
  "Rule",
  z.object({
    id: z.string(),
    name: z.string().max(MAX_RULE_NAME),
    enabled: z.boolean(),
    event: z.enum(RULE_EVENTS),
    idle_minutes: z.int().nullable().describe("conversation.idle only"),
    conditions: z.array(wireCondition).describe("all must hold"),
    actions: z.array(ruleAction).describe("run in this order"),
    position: z.int().describe("rules run in this order, 0 first"),
    created_at: isoTime,
    updated_at: isoTime,
  }),
);

export const deletedRule = named("DeletedRule", z.object({ id: z.string(), deleted: z.literal(true) }));

export const ruleTestResult = named(
  "RuleTestResult",
  z.object({
    matched: z.boolean(),
    conditions: z.array(wireCondition.extend({ result: z.boolean() })),
    actions: z.array(ruleAction.and(z.object({ description: z.string() }))).describe("what would be done when matched ([] when not)"),
  }),
);

export const ruleRun = named(
  "RuleRun",
  z.object({
    at: isoTime,
    conversation_id: z.string(),
    actions: z.array(z.object({ type: z.enum(RULE_ACTION_TYPES), ok: z.boolean(), error: z.string().optional() })),
    error: z.string().nullable().describe("the first failing action's error; null when every action succeeded"),
  }),
);

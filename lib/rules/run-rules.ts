import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { AppError } from "../core/errors";
import { log } from "../core/log";
import { actAsRule } from "../core/acting-rule";
import { ATTRIBUTE_FIELD, RUNS_KEPT, type FieldKind, type RuleAction, type RuleCondition, type RuleEvent } from "../contracts/rules";
import { performAction } from "./actions";
import { attributeSource } from "./attributes";
import { checkConditions } from "./conditions";
import { loadFacts, type ConversationFacts } from "./facts";
import { claimRun, pruneRuns } from "./statements";
import { enabledRules, type RunnableRule } from "./enabled-rules";

// Running the rules of one event (docs/rules.md), in a job after the event's write committed,
// never inside a visitor's request. The enabled rules of the event run in list order; a rule whose
// conditions hold claims its run (rule, event key) first, so it acts at most once per event
// whatever retries or second instances do; then its actions run one by one as the rule's. A
// failing action is written in the run (its error) and the next action still runs; nothing a rule
// does can fail the conversation, the send or the other rules. What a rule does is never an event
// for rules (./rule-events.ts says why, event by event).

export interface RuleEventInput {
  event: RuleEvent;
  conversationId: string;
  /** What makes this event one event: a rule runs at most once per key. */
  key: string;
  /** message.created: the visitor's message the event is about. */
  messageId?: string | null;
  /** Only this rule (the idle check runs each rule on its own quiet spells). */
  ruleId?: string;
}

export interface ActionOutcome {
  type: RuleAction["type"];
  ok: boolean;
  error?: string;
}

/** Runs the event's rules; answers how many acted. */
export async function runRulesForEvent(input: RuleEventInput): Promise<number> {
  const rules = (await enabledRules(input.event)).filter((rule) => !input.ruleId || rule.id === input.ruleId);
  if (rules.length === 0) return 0;
  const prisma = await db();
  let facts = await loadFacts(input.conversationId, input.event, input.messageId ?? null);
  let acted = 0;
  for (const rule of rules) {
    if (!facts) break; // erased meanwhile
    const kinds = await attributeKinds(rule.conditions);
    const matched = checkConditions(rule.conditions, facts, kinds).every(Boolean);
    // A quiet spell is checked once (the idle check would find it again every minute otherwise).
    if (!matched && input.event === "conversation.idle") await claimRun(prisma, { id: `rr_${randomUUID()}`, ruleId: rule.id, eventKey: input.key, conversationId: input.conversationId, matched });
    if (!matched) continue;
    const runId = `rr_${randomUUID()}`;
    if (!(await claimRun(prisma, { id: runId, ruleId: rule.id, eventKey: input.key, conversationId: input.conversationId, matched }))) continue;
    const { outcomes, changed } = await performActions(rule, input.conversationId, facts);
    const failed = outcomes.find((outcome) => !outcome.ok);
    await prisma.ruleRun.update({ where: { id: runId }, data: { actions: outcomes as object[], error: failed ? `${failed.type}: ${failed.error}` : null } });
    if (pruneDue(rule.id)) await pruneRuns(prisma, rule.id, RUNS_KEPT).catch(() => undefined);
    acted++;
    // The next rule sees what this one did.
    if (changed) facts = await loadFacts(input.conversationId, input.event, input.messageId ?? null);
  }
  return acted;
}

async function performActions(rule: RunnableRule, conversationId: string, facts: ConversationFacts): Promise<{ outcomes: ActionOutcome[]; changed: boolean }> {
  const outcomes: ActionOutcome[] = [];
  let changed = false;
  const held = { labels: new Set(facts.labels), team: facts.team }; // as this rule's own actions leave it
  for (const action of rule.actions) {
    if (changesNothing(action, held)) {
      outcomes.push({ type: action.type, ok: true });
      continue;
    }
    try {
      await actAsRule(rule, () => performAction(action, conversationId, rule));
      outcomes.push({ type: action.type, ok: true });
      changed = true;
      if (action.type === "add_label") held.labels.add(action.label_id);
      if (action.type === "remove_label") held.labels.delete(action.label_id);
      if (action.type === "assign_team") held.team = action.team_id;
    } catch (error) {
      outcomes.push({ type: action.type, ok: false, error: errorText(error) });
      if (!(error instanceof AppError)) log.warn("rule_action_failed", { ruleId: rule.id, conversationId, action: action.type, error });
    }
  }
  return { outcomes, changed };
}

/**
 * An action the facts say is done already (the label is on, the team is the one): the service
 * would find the same and write nothing, but only after a transaction and a lock of its own. A
 * rule that matches every message of a conversation then costs its run's record and no more.
 */
function changesNothing(action: RuleAction, held: { labels: ReadonlySet<string>; team: string | null }): boolean {
  switch (action.type) {
    case "add_label":
      return held.labels.has(action.label_id);
    case "remove_label":
      return !held.labels.has(action.label_id);
    case "assign_team":
      return held.team === action.team_id;
    default:
      return false;
  }
}

/** Runs of one rule between prunes: the prune keeps the newest RUNS_KEPT and the last day's, so doing it now and then keeps the same. */
const PRUNE_EVERY = 20;
const runsSincePrune = new Map<string, number>();
function pruneDue(ruleId: string): boolean {
  const count = runsSincePrune.get(ruleId) ?? 0;
  runsSincePrune.set(ruleId, (count + 1) % PRUNE_EVERY);
  return count === 0;
}

/** What a run shows of an error: a service's own message; anything else in general words (the log has it). */
function errorText(error: unknown): string {
  if (error instanceof AppError) return error.message;
  if (error instanceof Error && /^No attribute has the key/.test(error.message)) return error.message;
  return "The action failed unexpectedly.";
}

/** The kinds of the attribute fields the conditions use. */
export async function attributeKinds(conditions: RuleCondition[]): Promise<Map<string, FieldKind>> {
  const kinds = new Map<string, FieldKind>();
  for (const { field } of conditions) {
    if (!ATTRIBUTE_FIELD.test(field) || kinds.has(field)) continue;
    const kind = await attributeSource.kindOf(field.slice("attr.".length));
    if (kind) kinds.set(field, kind);
  }
  return kinds;
}

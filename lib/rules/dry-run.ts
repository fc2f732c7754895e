import { AppError } from "../core/errors";
import type { TestRuleInput } from "../contracts/rules";
import { checkActionReferences } from "./actions";
import { checkConditions } from "./conditions";
import { loadFacts } from "./facts";
import { namesFor } from "./names";
import { checkAttributeConditions } from "./rules";
import { attributeKinds } from "./run-rules";
import { describeAction } from "./sentences";

// "Test on a conversation" (POST /inbox/rules/test): the rule's conditions against the
// conversation as it is now, each with its outcome, and what its actions would do — read only,
// nothing is written. The rule is checked as a save would check it (the same 400s).

export async function testRule(input: TestRuleInput) {
  const { rule } = input;
  await checkAttributeConditions(rule.conditions, "rule.conditions");
  await checkActionReferences(rule.actions, "rule.actions");
  const facts = await loadFacts(input.conversation_id, rule.event);
  if (!facts) throw new AppError("conversation_not_found", "No conversation has this identifier.");
  const results = checkConditions(rule.conditions, facts, await attributeKinds(rule.conditions));
  const matched = results.every(Boolean);
  const names = matched ? await namesFor([rule]) : new Map<string, string>();
  return {
    matched,
    conditions: rule.conditions.map((condition, index) => ({ field: condition.field, op: condition.op, ...(condition.value === undefined ? {} : { value: condition.value }), result: results[index]! })),
    actions: matched ? rule.actions.map((action) => ({ ...action, description: describeAction(action, names) })) : [],
  };
}

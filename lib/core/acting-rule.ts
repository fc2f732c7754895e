import { AsyncLocalStorage } from "node:async_hooks";

// Which rule is acting (docs/rules.md): a rule's actions call the same services a member's do
// (assignment, labels, snooze, close, notes), and those write the staff timeline. Run inside
// `actAsRule`, what they write names the rule as its actor, without every service taking one more
// argument. Nothing outside a rule's run sees one.

export interface ActingRule {
  id: string;
  name: string;
}

const acting = new AsyncLocalStorage<ActingRule>();

/** Runs `work` as the rule's: timeline events written meanwhile carry `rule: {id, name}`. */
export const actAsRule = <T>(rule: ActingRule, work: () => Promise<T>): Promise<T> => acting.run({ id: rule.id, name: rule.name }, work);

/** The rule whose action is running, if one is. */
export const actingRule = (): ActingRule | undefined => acting.getStore();

import { db } from "../db/client";
import { processSingleton } from "../core/process-registry.mjs";
import type { ActingRule } from "../core/acting-rule";
import type { RuleAction, RuleCondition, RuleEvent } from "../contracts/rules";

// The enabled rules of an event, as every event's run reads them (./run-rules.ts). Read once and
// kept a moment per process: with 50 rules the list (and its JSON) was the largest read of a
// run, and it is the same for every message. A rule saved through ./rules.ts is seen at once on
// this instance; other instances see it within KEEP_MS (the list is per process, like the
// suggestions' cache). One registry for the process: Next loads this module once per bundle,
// and the save (a route) and the run (the worker) are in different bundles.

export interface RunnableRule extends ActingRule {
  conditions: RuleCondition[];
  actions: RuleAction[];
}

const KEEP_MS = 2_000;

interface Kept {
  at: number;
  rules: Promise<RunnableRule[]>;
}

const kept = processSingleton("enabled rules by event", () => new Map<RuleEvent, Kept>());

/** The event's enabled rules in list order. */
export function enabledRules(event: RuleEvent): Promise<RunnableRule[]> {
  const now = Date.now();
  const hit = kept.get(event);
  if (hit && now - hit.at < KEEP_MS) return hit.rules;
  const rules = readEnabledRules(event);
  const entry = { at: now, rules };
  kept.set(event, entry);
  // A failed read is not kept.
  rules.catch(() => kept.get(event) === entry && kept.delete(event));
  return rules;
}

/** After a rule is created, changed or deleted: the next run reads the rules again. */
export function forgetEnabledRules(): void {
  kept.clear();
}

async function readEnabledRules(event: RuleEvent): Promise<RunnableRule[]> {
  const rows = await (await db()).rule.findMany({
    where: { enabled: true, event },
    orderBy: [{ position: "asc" }, { id: "asc" }],
    select: { id: true, name: true, conditions: true, actions: true },
  });
  return rows as unknown as RunnableRule[];
}

import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { db } from "../db/client";
import { AppError, invalidRequest } from "../core/errors";
import type { Prisma, Rule } from "../generated/prisma/client";
import {
  ATTRIBUTE_FIELD,
  conditionProblem,
  RUNS_KEPT,
  type CreateRuleInput,
  type rule as ruleSchema,
  type RuleAction,
  type RuleCondition,
  type RuleEvent,
  type ruleRun,
  type UpdateRuleInput,
} from "../contracts/rules";
import { checkActionReferences } from "./actions";
import { attributeSource } from "./attributes";
import { forgetEnabledRules } from "./enabled-rules";

// Rules (decisions.md, round 4, "Rules"; docs/rules.md): owners list, create, change, reorder and
// delete them. What the contract cannot know is checked here before anything is saved: that the
// teams, members, labels and saved replies the actions name exist, and that an attribute field's
// operator fits its attribute's type.

export type WireRule = z.infer<typeof ruleSchema>;
export type WireRuleRun = z.infer<typeof ruleRun>;

export const ruleNotFound = () => new AppError("not_found", "No rule has this identifier.");

export const toWireRule = (row: Rule): WireRule => ({
  id: row.id,
  name: row.name,
  enabled: row.enabled,
  event: row.event as RuleEvent, // written only through the contract
  idle_minutes: row.idleMinutes,
  conditions: row.conditions as RuleCondition[],
  actions: row.actions as RuleAction[],
  position: row.position,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** 400 for an `attr.<key>` condition whose attribute does not exist or whose operator does not fit its type. */
export async function checkAttributeConditions(conditions: RuleCondition[], path = "conditions"): Promise<void> {
  for (const [index, condition] of conditions.entries()) {
    if (!ATTRIBUTE_FIELD.test(condition.field)) continue;
    const kind = await attributeSource.kindOf(condition.field.slice("attr.".length));
    if (!kind) throw invalidRequest(`No attribute has the key in ${path}.${index}.field.`, [{ path: `${path}.${index}.field`, problem: "no attribute has this key" }]);
    const problem = conditionProblem(kind, condition);
    if (problem) throw invalidRequest(`The condition at ${path}.${index}: ${problem.path} ${problem.problem}.`, [{ path: `${path}.${index}.${problem.path}`, problem: problem.problem }]);
  }
}

/** Every rule, in the order they run. */
export async function listRules(): Promise<WireRule[]> {
  const rows = await (await db()).rule.findMany({ orderBy: [{ position: "asc" }, { id: "asc" }] });
  return rows.map(toWireRule);
}

export async function createRule(input: CreateRuleInput): Promise<WireRule> {
  await checkAttributeConditions(input.conditions);
  await checkActionReferences(input.actions);
  const prisma = await db();
  const row = await prisma.$transaction(async (tx) => {
    const last = await tx.rule.aggregate({ _max: { position: true } });
    return tx.rule.create({
      data: {
        id: `rl_${randomUUID()}`,
        name: input.name,
        enabled: input.enabled,
        event: input.event,
        idleMinutes: input.idle_minutes ?? null,
        conditions: input.conditions as Prisma.InputJsonValue,
        actions: input.actions as Prisma.InputJsonValue,
        position: (last._max.position ?? -1) + 1,
      },
    });
  });
  forgetEnabledRules();
  return toWireRule(row);
}

export async function updateRule(id: string, input: UpdateRuleInput): Promise<WireRule> {
  if (input.conditions) await checkAttributeConditions(input.conditions);
  if (input.actions) await checkActionReferences(input.actions);
  const prisma = await db();
  const row = await prisma.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ event: string; idle_minutes: number | null }[]>`SELECT "event", "idle_minutes" FROM "rules" WHERE "id" = ${id} FOR UPDATE`;
    if (!current) throw ruleNotFound();
    const event = input.event ?? current.event;
    const idleMinutes = event !== "conversation.idle" ? null : input.idle_minutes !== undefined ? input.idle_minutes : current.idle_minutes;
    if (event === "conversation.idle" && idleMinutes === null) throw invalidRequest("idle_minutes is required for conversation.idle.", [{ path: "idle_minutes", problem: "is required for conversation.idle" }]);
    if (event !== "conversation.idle" && input.idle_minutes !== undefined && input.idle_minutes !== null) {
      throw invalidRequest("idle_minutes is only for conversation.idle.", [{ path: "idle_minutes", problem: "is only for conversation.idle" }]);
    }
    await tx.rule.update({
      where: { id },
      data: {
        name: input.name,
        enabled: input.enabled,
        event: input.event,
        idleMinutes,
        conditions: input.conditions as Prisma.InputJsonValue | undefined,
        actions: input.actions as Prisma.InputJsonValue | undefined,
        updatedAt: new Date(),
      },
    });
    if (input.position !== undefined) await moveTo(tx, id, input.position);
    return tx.rule.findUniqueOrThrow({ where: { id } });
  });
  forgetEnabledRules();
  return toWireRule(row);
}

/** Puts the rule at `position` (0 first; past the end: last) and numbers every rule 0, 1, 2… again. */
async function moveTo(tx: Prisma.TransactionClient, id: string, position: number): Promise<void> {
  await tx.$executeRaw`LOCK TABLE "rules" IN SHARE ROW EXCLUSIVE MODE`;
  const order = (await tx.rule.findMany({ orderBy: [{ position: "asc" }, { id: "asc" }], select: { id: true } })).map((row) => row.id).filter((other) => other !== id);
  order.splice(Math.min(position, order.length), 0, id);
  await tx.$executeRaw`UPDATE "rules" r SET "position" = o.n - 1 FROM unnest(${order}::text[]) WITH ORDINALITY AS o(id, n) WHERE r."id" = o.id`;
}

export async function deleteRule(id: string) {
  const { count } = await (await db()).rule.deleteMany({ where: { id } });
  if (count === 0) throw ruleNotFound();
  forgetEnabledRules();
  return { id, deleted: true as const };
}

/** The rule's last runs, newest first. */
export async function listRuleRuns(id: string): Promise<WireRuleRun[]> {
  const prisma = await db();
  if (!(await prisma.rule.findUnique({ where: { id }, select: { id: true } }))) throw ruleNotFound();
  const rows = await prisma.ruleRun.findMany({ where: { ruleId: id, matched: true }, orderBy: [{ at: "desc" }, { id: "desc" }], take: RUNS_KEPT });
  return rows.map((row) => ({ at: row.at.toISOString(), conversation_id: row.conversationId, actions: row.actions as WireRuleRun["actions"], error: row.error }));
}

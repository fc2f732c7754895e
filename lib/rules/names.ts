import { db } from "../db/client";
import type { RuleAction, RuleCondition } from "../contracts/rules";

// The names of what rules refer to by id (teams, members, labels, saved replies, sites), for the
// sentences (./sentences.ts): a few lookups for any number of rules.

export async function namesFor(rules: { conditions: RuleCondition[]; actions: RuleAction[] }[]): Promise<Map<string, string>> {
  const ids = new Set<string>();
  for (const rule of rules) {
    for (const condition of rule.conditions) {
      if (!["site", "team", "label"].includes(condition.field)) continue;
      for (const value of Array.isArray(condition.value) ? condition.value : [condition.value]) if (typeof value === "string") ids.add(value);
    }
    for (const action of rule.actions) {
      for (const key of ["team_id", "member_id", "label_id", "saved_reply_id"] as const) {
        const value = (action as Record<string, unknown>)[key];
        if (typeof value === "string") ids.add(value);
      }
    }
  }
  if (ids.size === 0) return new Map();
  const wanted = { where: { id: { in: [...ids] } } };
  const prisma = await db();
  const [teams, members, labels, replies, sites] = await Promise.all([
    prisma.team.findMany({ ...wanted, select: { id: true, name: true } }),
    prisma.member.findMany({ ...wanted, select: { id: true, name: true } }),
    prisma.label.findMany({ ...wanted, select: { id: true, name: true } }),
    prisma.savedReply.findMany({ ...wanted, select: { id: true, title: true } }),
    prisma.site.findMany({ ...wanted, select: { id: true, name: true } }),
  ]);
  return new Map<string, string>([
    ...teams.map((row) => [row.id, row.name] as const),
    ...members.map((row) => [row.id, row.name] as const),
    ...labels.map((row) => [row.id, row.name] as const),
    ...replies.map((row) => [row.id, row.title] as const),
    ...sites.map((row) => [row.id, row.name] as const),
  ]);
}

import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { db } from "../db/client";
import { AppError, invalidRequest } from "../core/errors";
import type { Prisma, SlaPolicy } from "../generated/prisma/client";
import { MAX_SLA_POLICIES, type CreateSlaPolicyInput, type slaPolicy, type UpdateSlaPolicyInput } from "../contracts/sla";

// SLA policies (decisions.md, round 4, "SLA policies"; docs/sla.md): owners keep an ordered list;
// the first policy whose sites, teams and labels match a conversation applies (empty = any). The
// ids a policy names must exist when it is saved (400 naming the place); a site, team or label
// deleted later simply stops matching. Any change marks the open conversations for a new
// computation (the trigger of migration 20261210000200).

export type WireSlaPolicy = z.infer<typeof slaPolicy>;

export const toWireSlaPolicy = (row: SlaPolicy): WireSlaPolicy => ({
  id: row.id,
  name: row.name,
  position: row.position,
  first_response_minutes: row.firstResponseMinutes,
  next_response_minutes: row.nextResponseMinutes,
  resolution_minutes: row.resolutionMinutes,
  business_hours: row.businessHours,
  sites: row.siteIds,
  teams: row.teamIds,
  labels: row.labelIds,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

type PolicyColumns = Omit<Prisma.SlaPolicyUncheckedCreateInput, "id" | "position" | "createdAt" | "updatedAt">;

/** The wire fields as columns: all of them for a create, the ones given for an update. */
function policyColumns(input: CreateSlaPolicyInput): PolicyColumns;
function policyColumns(input: UpdateSlaPolicyInput): Partial<PolicyColumns>;
function policyColumns(input: UpdateSlaPolicyInput): Partial<PolicyColumns> {
  return {
    name: input.name,
    firstResponseMinutes: input.first_response_minutes,
    nextResponseMinutes: input.next_response_minutes,
    resolutionMinutes: input.resolution_minutes,
    businessHours: input.business_hours,
    siteIds: input.sites,
    teamIds: input.teams,
    labelIds: input.labels,
  };
}

export const slaPolicyNotFound = () => new AppError("not_found", "No SLA policy has this identifier.");

type Client = Pick<Prisma.TransactionClient, "site" | "team" | "label">;

/** Every id of `sites`, `teams` and `labels` must exist: the first unknown one is 400 naming its place. */
async function checkScope(client: Client, input: { sites?: string[]; teams?: string[]; labels?: string[] }): Promise<void> {
  const known = async (field: "sites" | "teams" | "labels", ids: string[] | undefined) => {
    if (!ids?.length) return [];
    const where = { where: { id: { in: ids } }, select: { id: true } } as const;
    const found =
      field === "sites" ? await client.site.findMany(where) : field === "teams" ? await client.team.findMany(where) : await client.label.findMany(where);
    const present = new Set(found.map((row) => row.id));
    return ids.flatMap((id, index) => (present.has(id) ? [] : [{ path: `${field}.${index}`, problem: `no ${field.slice(0, -1)} has this id` }]));
  };
  const fields = [...(await known("sites", input.sites)), ...(await known("teams", input.teams)), ...(await known("labels", input.labels))];
  if (fields.length > 0) throw invalidRequest(`Unknown id at ${fields[0]!.path}.`, fields);
}

/** Every policy, in list order. */
export async function listSlaPolicies(): Promise<WireSlaPolicy[]> {
  const rows = await (await db()).slaPolicy.findMany({ orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toWireSlaPolicy);
}

/** Adds a policy at the end of the list. */
export async function createSlaPolicy(input: CreateSlaPolicyInput): Promise<WireSlaPolicy> {
  const prisma = await db();
  const row = await prisma.$transaction(async (tx) => {
    await checkScope(tx, input);
    // One writer of the list at a time, so two creates cannot take one position.
    await tx.$executeRaw`LOCK TABLE sla_policies IN SHARE ROW EXCLUSIVE MODE`;
    const count = await tx.slaPolicy.count();
    if (count >= MAX_SLA_POLICIES) throw new AppError("invalid_request", `At most ${MAX_SLA_POLICIES} SLA policies.`);
    return tx.slaPolicy.create({
      data: {
        id: `sla_${randomUUID()}`,
        position: count,
        ...policyColumns(input),
      },
    });
  });
  return toWireSlaPolicy(row);
}

/** Changes the fields given; `position` moves the policy there and closes the gap it left. */
export async function updateSlaPolicy(id: string, input: UpdateSlaPolicyInput): Promise<WireSlaPolicy> {
  const prisma = await db();
  const row = await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`LOCK TABLE sla_policies IN SHARE ROW EXCLUSIVE MODE`;
    const current = await tx.slaPolicy.findUnique({ where: { id } });
    if (!current) throw slaPolicyNotFound();
    await checkScope(tx, input);
    if (input.position !== undefined) await movePolicy(tx, id, input.position);
    return tx.slaPolicy.update({
      where: { id },
      data: {
        ...policyColumns(input),
        updatedAt: new Date(),
      },
    });
  });
  return toWireSlaPolicy(row);
}

/** Renumbers the list 0..n-1 with `id` at `position` (clamped to the end). */
async function movePolicy(tx: Prisma.TransactionClient, id: string, position: number): Promise<void> {
  const ordered = await tx.slaPolicy.findMany({ orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  const others = ordered.map((row) => row.id).filter((other) => other !== id);
  others.splice(Math.min(position, others.length), 0, id);
  await tx.$executeRaw`
    UPDATE sla_policies p SET position = o.position - 1
      FROM unnest(${others}::text[]) WITH ORDINALITY AS o(id, position) WHERE p.id = o.id AND p.position <> o.position - 1`;
}

/** Deletes the policy; the conversations it applied to are computed again (the next match, or none). */
export async function deleteSlaPolicy(id: string) {
  await (await db()).$transaction(async (tx) => {
    await tx.$executeRaw`LOCK TABLE sla_policies IN SHARE ROW EXCLUSIVE MODE`;
    const { count } = await tx.slaPolicy.deleteMany({ where: { id } });
    if (count === 0) throw slaPolicyNotFound();
    await tx.$executeRaw`
      UPDATE sla_policies p SET position = o.position - 1
        FROM (SELECT id, row_number() OVER (ORDER BY position, created_at, id) AS position FROM sla_policies) o
       WHERE p.id = o.id AND p.position <> o.position - 1`;
  });
  return { id, deleted: true as const };
}

/** A policy's name (the conversation view's heading); null when there is none. */
export async function slaPolicyNameOf(id: string | null): Promise<string | null> {
  if (!id) return null;
  return (await (await db()).slaPolicy.findUnique({ where: { id }, select: { name: true } }))?.name ?? null;
}

import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { AppError, invalidRequest } from "../core/errors";
import type { Prisma } from "../generated/prisma/client";
import { canSignInWhere } from "../members/can-sign-in";
import { teamNameKey, type CreateTeamInput, type team, type UpdateTeamInput } from "../contracts/teams";

// Teams (decisions.md, round 4, "Teams"; docs/teams.md): owners create, change and delete them;
// every member reads them. A name is unique case-insensitively (`name_key`, unique in the
// database, so two creates at once cannot both win). Members are members who can sign in.

export type WireTeam = z.infer<typeof team>;

const teamView = {
  id: true,
  name: true,
  assignment: true,
  maxOpen: true,
  createdAt: true,
  members: { select: { memberId: true }, orderBy: [{ createdAt: "asc" }, { memberId: "asc" }] },
} satisfies Prisma.TeamSelect;

type TeamRow = Prisma.TeamGetPayload<{ select: typeof teamView }>;

const toWireTeam = (row: TeamRow): WireTeam => ({
  id: row.id,
  name: row.name,
  member_ids: row.members.map((member) => member.memberId),
  assignment: row.assignment as WireTeam["assignment"], // stored only through the contract (and a CHECK)
  max_open: row.maxOpen,
  created_at: row.createdAt.toISOString(),
});

export const teamNotFound = () => new AppError("not_found", "No team has this identifier.");
const nameTaken = () => new AppError("already_exists", "A team with this name already exists (names are compared without case).");

type Client = Pick<Prisma.TransactionClient, "member">;

/** Every id must be a member who can sign in: an unknown one is 400 naming its place, nothing saved. */
async function checkMembers(client: Client, ids: string[] | undefined): Promise<void> {
  if (!ids?.length) return;
  const found = await client.member.findMany({ where: { id: { in: ids }, ...canSignInWhere }, select: { id: true } });
  const known = new Set(found.map((row) => row.id));
  const fields = ids.flatMap((id, index) => (known.has(id) ? [] : [{ path: `member_ids.${index}`, problem: "no active team member has this id" }]));
  if (fields.length > 0) throw invalidRequest(`No active team member has the id at ${fields[0]!.path}.`, fields);
}

/** Every team, by name. */
export async function listTeams(): Promise<WireTeam[]> {
  const rows = await (await db()).team.findMany({ orderBy: [{ nameKey: "asc" }, { id: "asc" }], select: teamView });
  return rows.map(toWireTeam);
}

export async function createTeam(input: CreateTeamInput): Promise<WireTeam> {
  const prisma = await db();
  await checkMembers(prisma, input.member_ids);
  try {
    const row = await prisma.team.create({
      data: {
        id: `tm_${randomUUID()}`,
        name: input.name,
        nameKey: teamNameKey(input.name),
        assignment: input.assignment,
        maxOpen: input.max_open,
        members: { create: input.member_ids.map((memberId) => ({ memberId })) },
      },
      select: teamView,
    });
    return toWireTeam(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function updateTeam(id: string, input: UpdateTeamInput): Promise<WireTeam> {
  const prisma = await db();
  try {
    const row = await prisma.$transaction(async (tx) => {
      const { count } = await tx.team.updateMany({
        where: { id },
        data: {
          name: input.name,
          nameKey: input.name === undefined ? undefined : teamNameKey(input.name),
          assignment: input.assignment,
          maxOpen: input.max_open,
          updatedAt: new Date(),
        },
      });
      if (count === 0) throw teamNotFound();
      if (input.member_ids !== undefined) {
        await checkMembers(tx, input.member_ids);
        await tx.teamMember.deleteMany({ where: { teamId: id, memberId: { notIn: input.member_ids } } });
        await tx.teamMember.createMany({ data: input.member_ids.map((memberId) => ({ teamId: id, memberId })), skipDuplicates: true });
      }
      return tx.team.findUniqueOrThrow({ where: { id }, select: teamView });
    });
    return toWireTeam(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/**
 * Deletes the team: what it held has no team any more (every agent sees it), its sites no default
 * team (foreign keys), and it leaves every site's departments, in the same transaction.
 */
export async function deleteTeam(id: string) {
  await (await db()).$transaction(async (tx) => {
    const { count } = await tx.team.deleteMany({ where: { id } });
    if (count === 0) throw teamNotFound();
    await tx.$executeRaw`
      UPDATE sites SET departments = COALESCE((SELECT jsonb_agg(d ORDER BY n) FROM jsonb_array_elements(departments) WITH ORDINALITY AS e(d, n) WHERE d->>'team_id' <> ${id}), '[]'::jsonb)
      WHERE departments @> jsonb_build_array(jsonb_build_object('team_id', ${id}::text))`;
  });
  return { id, deleted: true as const };
}

/** The teams a member belongs to (the row form of the visibility rule needs them). */
export async function teamIdsOf(memberId: string): Promise<string[]> {
  const rows = await (await db()).teamMember.findMany({ where: { memberId }, select: { teamId: true } });
  return rows.map((row) => row.teamId);
}

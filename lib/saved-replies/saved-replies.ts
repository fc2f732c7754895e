import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import type { Prisma, SavedReply } from "../generated/prisma/client";
import { AppError } from "../core/errors";
import type { CreateSavedReplyInput, SavedReplyScope, UpdateSavedReplyInput } from "../contracts/saved-replies";
import type { savedReply } from "../contracts/workspace-wire";
import type { StaffMember } from "../staff/sessions";

// Saved replies (decisions.md, round 3). The team's (`member_id` null) are read by every member and
// managed by owners; a personal reply is its member's alone: to anyone else it does not exist (404,
// never 403, so ids reveal nothing). A shortcut is unique per scope — among the team's, and among
// one member's own — by one unique index; a duplicate is 409 `already_exists`.

export type WireSavedReply = z.infer<typeof savedReply>;

type Row = Pick<SavedReply, "id" | "scope" | "memberId" | "shortcut" | "title" | "body" | "createdAt" | "updatedAt">;

const toWire = (row: Row): WireSavedReply => ({
  id: row.id,
  scope: row.scope as SavedReplyScope, // written only as "team" or "personal" (and checked by the table)
  shortcut: row.shortcut,
  title: row.title,
  body: row.body,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const notFound = () => new AppError("not_found", "No saved reply has this identifier.");
const shortcutTaken = (scope: SavedReplyScope) =>
  new AppError("already_exists", scope === "team" ? "A team reply already has this shortcut." : "One of your replies already has this shortcut.");
const ownersOnly = () => new AppError("forbidden", "Only owners can manage the team's saved replies.");

/** Who owns a reply of this scope made by `member`: null for the team. */
const ownerOf = (member: StaffMember, scope: SavedReplyScope) => (scope === "team" ? null : member.id);

function assertMayManage(member: StaffMember, scope: SavedReplyScope): void {
  if (scope === "team" && member.role !== "owner") throw ownersOnly();
}

/** The team's replies and the member's own, by shortcut (the team's first where both use one). */
export async function listSavedReplies(member: StaffMember): Promise<WireSavedReply[]> {
  const rows = await (await db()).savedReply.findMany({
    where: { OR: [{ memberId: null }, { memberId: member.id }] },
    orderBy: [{ shortcut: "asc" }, { scope: "desc" }, { id: "asc" }],
  });
  return rows.map(toWire);
}

export async function createSavedReply(member: StaffMember, input: CreateSavedReplyInput): Promise<WireSavedReply> {
  assertMayManage(member, input.scope);
  try {
    const row = await (await db()).savedReply.create({
      data: { id: `sr_${randomUUID()}`, scope: input.scope, memberId: ownerOf(member, input.scope), shortcut: input.shortcut, title: input.title, body: input.body },
    });
    return toWire(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw shortcutTaken(input.scope);
    throw error;
  }
}

/** A reply the member can see (the team's, or their own), or 404. */
async function visibleReply(tx: Prisma.TransactionClient, member: StaffMember, id: string): Promise<Row> {
  const row = await tx.savedReply.findUnique({ where: { id } });
  if (!row || (row.memberId !== null && row.memberId !== member.id)) throw notFound();
  return row;
}

/** Changes a reply; moving it between scopes needs the right to manage both (a team reply moved to `personal` becomes the owner's own). */
export async function updateSavedReply(member: StaffMember, id: string, input: UpdateSavedReplyInput): Promise<WireSavedReply> {
  const prisma = await db();
  const scope = input.scope;
  try {
    const row = await prisma.$transaction(async (tx) => {
      const existing = await visibleReply(tx, member, id);
      assertMayManage(member, existing.scope as SavedReplyScope);
      if (scope) assertMayManage(member, scope);
      return tx.savedReply.update({
        where: { id },
        data: {
          shortcut: input.shortcut,
          title: input.title,
          body: input.body,
          ...(scope ? { scope, memberId: ownerOf(member, scope) } : {}),
          updatedAt: new Date(),
        },
      });
    });
    return toWire(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw shortcutTaken(scope ?? (await scopeOf(id)));
    throw error;
  }
}

const scopeOf = async (id: string): Promise<SavedReplyScope> =>
  ((await (await db()).savedReply.findUnique({ where: { id }, select: { scope: true } }))?.scope as SavedReplyScope | undefined) ?? "personal";

export async function deleteSavedReply(member: StaffMember, id: string) {
  await (await db()).$transaction(async (tx) => {
    const existing = await visibleReply(tx, member, id);
    assertMayManage(member, existing.scope as SavedReplyScope);
    await tx.savedReply.delete({ where: { id } });
  });
  return { id, deleted: true as const };
}

import type { z } from "zod";
import { db } from "../db/client";
import { AppError } from "../core/errors";
import { updateMember } from "../members/members";
import type { PictureInput } from "../contracts/members";
import type { teamMember } from "../contracts/inbox-wire";
import { publishSessionsEnded } from "../realtime/inbox-signals";
import { availabilityOf } from "../availability/availability";
import type { StaffRole } from "./sessions";
import { canSignInWhere } from "../members/can-sign-in";

// The team as owners manage it in the inbox: members with a sign-in (and those invited), their
// role, and deactivation. The last active owner can be neither demoted nor deactivated.

export type TeamMember = z.infer<typeof teamMember>;

/** Every member who can sign in, was invited, or was deactivated; bots (no email, no role) are left out. */
export async function listTeam(): Promise<TeamMember[]> {
  const prisma = await db();
  const members = await prisma.member.findMany({
    where: { OR: [{ role: { not: null } }, { email: { not: null } }] },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    include: { invites: { where: { usedAt: null, expiresAt: { gt: new Date() } }, select: { id: true } } },
  });
  return members.map((member) => ({
    id: member.id,
    name: member.name,
    email: member.email,
    role: member.passwordHash ? (member.role as StaffRole) : null,
    notify: member.notify,
    active: member.passwordHash !== null && member.deactivatedAt === null,
    has_picture: member.avatarTag !== null,
    picture_tag: member.avatarTag,
    invited: member.invites.length > 0,
    availability: availabilityOf(member),
    max_open: member.maxOpen,
  }));
}

/** Active members who can be assigned a conversation. */
export async function listAssignable() {
  const members = await (await db()).member.findMany({
    where: canSignInWhere,
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: { id: true, name: true },
  });
  return members;
}

async function assertNotLastOwner(memberId: string): Promise<void> {
  const prisma = await db();
  const owners = await prisma.member.findMany({
    where: { ...canSignInWhere, role: "owner" },
    select: { id: true },
  });
  if (owners.length === 1 && owners[0]!.id === memberId) {
    throw new AppError("last_owner", "This is the only owner: make someone else an owner first.");
  }
}

export async function updateTeamMember(
  id: string,
  input: { name?: string; avatar?: PictureInput | null; email?: string; notify?: boolean; role?: StaffRole; max_open?: number },
) {
  const prisma = await db();
  const member = await prisma.member.findUnique({ where: { id }, select: { role: true, passwordHash: true, email: true } });
  if (!member || (member.role === null && member.email === null)) throw new AppError("member_not_found", "No member has this id.");
  if (input.role && input.role !== "owner" && member.role === "owner") await assertNotLastOwner(id);
  await updateMember(id, { name: input.name, avatar: input.avatar, email: input.email, notify: input.notify, maxOpen: input.max_open });
  if (input.role) await prisma.member.update({ where: { id }, data: { role: input.role } });
  return (await listTeam()).find((entry) => entry.id === id)!;
}

/** No more sign-in: every session (and its open event streams) and open invite of the member ends at once. */
export async function deactivateMember(id: string) {
  const prisma = await db();
  const member = await prisma.member.findUnique({ where: { id }, select: { role: true, email: true } });
  if (!member || (member.role === null && member.email === null)) throw new AppError("member_not_found", "No member has this id.");
  if (member.role === "owner") await assertNotLastOwner(id);
  await prisma.$transaction([
    prisma.member.update({ where: { id }, data: { deactivatedAt: new Date() } }),
    prisma.staffSession.deleteMany({ where: { memberId: id } }),
    prisma.staffInvite.deleteMany({ where: { memberId: id, usedAt: null } }),
    prisma.conversation.updateMany({ where: { assignedMemberId: id, status: "open" }, data: { assignedMemberId: null } }),
  ]);
  await publishSessionsEnded({ memberId: id });
  return (await listTeam()).find((entry) => entry.id === id)!;
}

import { createHash } from "node:crypto";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import type { Member } from "../generated/prisma/client";
import { AppError, invalidRequest } from "../core/errors";
import { publishSessionsEnded } from "../realtime/inbox-signals";
import type { SqlRow } from "../core/sql-row";
import { canSignIn } from "./can-sign-in";
import { bytesMatchType } from "../core/file-sniffing";
import type { PictureInput } from "../contracts/members";
import { availabilityOf, type AvailabilityColumns } from "../availability/availability";

const memberNotFound = () => new AppError("member_not_found", "No such member in this conversation.");

function pictureColumns(picture: PictureInput | null) {
  if (!picture) return { avatarBytes: null, avatarContentType: null, avatarTag: null };
  const bytes = Buffer.from(picture.bytes, "base64");
  if (!bytesMatchType(picture.content_type, bytes)) {
    throw invalidRequest(`The picture bytes are not a valid ${picture.content_type} file.`, [
      { path: "avatar.bytes", problem: `do not start with the ${picture.content_type} signature` },
    ]);
  }
  return {
    avatarBytes: new Uint8Array(bytes),
    avatarContentType: picture.content_type,
    avatarTag: createHash("sha256").update(bytes).digest("hex"),
  };
}

type MemberRow = Pick<
  Member,
  "id" | "name" | "avatarContentType" | "avatarTag" | "email" | "notify" | "role" | "passwordHash" | "deactivatedAt" | "shownInWidget" | "bot" | "maxOpen"
> &
  AvailabilityColumns;

function toWireMember(member: MemberRow) {
  return {
    id: member.id,
    name: member.name,
    avatar: member.avatarTag ? { content_type: member.avatarContentType, tag: member.avatarTag } : null,
    email: member.email,
    notify: member.notify,
    /** `owner` or `agent` once the member has accepted an invite; null for members without a sign-in. */
    role: member.passwordHash ? member.role : null,
    deactivated: member.deactivatedAt !== null,
    shown_in_widget: member.shownInWidget,
    bot: member.bot,
    availability: availabilityOf(member),
    max_open: member.maxOpen,
  };
}

const emailTaken = () => new AppError("already_exists", "Another member already uses this email.");

export async function createMember(input: {
  id: string;
  name: string;
  avatar?: PictureInput;
  email?: string;
  notify?: boolean;
  shownInWidget?: boolean;
  bot?: boolean;
  maxOpen?: number;
}) {
  const prisma = await db();
  if (input.email && (await prisma.member.findUnique({ where: { email: input.email }, select: { id: true } }))) throw emailTaken();
  try {
    const member = await prisma.member.create({
      data: {
        id: input.id,
        name: input.name,
        email: input.email,
        notify: input.notify,
        shownInWidget: input.shownInWidget ?? false,
        bot: input.bot ?? false,
        maxOpen: input.maxOpen,
        ...pictureColumns(input.avatar ?? null),
      },
    });
    return toWireMember(member);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("already_exists", "A member with this id or email already exists.");
    throw error;
  }
}

/**
 * A member who can no longer sign in, or whose sign-in email changed (another sign-in identity),
 * keeps no session: they are deleted with the change, and their event streams ended after it.
 */
export async function updateMember(
  id: string,
  input: {
    name?: string;
    avatar?: PictureInput | null;
    email?: string | null;
    notify?: boolean;
    shownInWidget?: boolean;
    bot?: boolean;
    maxOpen?: number;
  },
) {
  const prisma = await db();
  const data = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.shownInWidget !== undefined ? { shownInWidget: input.shownInWidget } : {}),
    ...(input.avatar !== undefined ? pictureColumns(input.avatar) : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.notify !== undefined ? { notify: input.notify } : {}),
    ...(input.bot !== undefined ? { bot: input.bot } : {}),
    ...(input.maxOpen !== undefined ? { maxOpen: input.maxOpen } : {}),
  };
  let result: { member: Member; sessionsEnded: boolean };
  try {
    result = await prisma.$transaction(async (tx) => {
      // Locked: a concurrent change cannot slip between this read and the update.
      const [before] = await tx.$queryRaw<SqlRow<Member, "email">[]>`SELECT email FROM members WHERE id = ${id} FOR UPDATE`;
      if (!before) throw new AppError("member_not_found", "No member has this id.");
      const member = await tx.member.update({ where: { id }, data });
      if (canSignIn(member) && member.email === before.email) return { member, sessionsEnded: false };
      const { count } = await tx.staffSession.deleteMany({ where: { memberId: id } });
      return { member, sessionsEnded: count > 0 };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  if (result.sessionsEnded) await publishSessionsEnded({ memberId: id });
  return toWireMember(result.member);
}

/** Every member, bots included, in name order. */
export async function listMembers() {
  const members = await (await db()).member.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }] });
  return members.map(toWireMember);
}

export async function assertMemberExists(id: string): Promise<void> {
  const found = await (await db()).member.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw new AppError("member_not_found", "No member has this id.");
}

/**
 * The picture of a member who has posted a public message in this conversation. Unknown members,
 * members who have not replied here and members without a picture are one and the same 404.
 */
export async function readMemberPicture(conversationId: string, memberId: string) {
  const prisma = await db();
  const [member, replied] = await Promise.all([
    prisma.member.findUnique({
      where: { id: memberId },
      select: { avatarBytes: true, avatarContentType: true, avatarTag: true },
    }),
    prisma.message.findFirst({ where: { conversationId, memberId, kind: "message" }, select: { id: true } }),
  ]);
  if (!member?.avatarBytes || !member.avatarContentType || !member.avatarTag || !replied) throw memberNotFound();
  return {
    content_type: member.avatarContentType,
    bytes: Buffer.from(member.avatarBytes).toString("base64"),
    tag: member.avatarTag,
  };
}

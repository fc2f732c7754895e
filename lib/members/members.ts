import { createHash } from "node:crypto";
import { db } from "../db";
import { isUniqueViolation } from "../db-errors";
import { AppError, invalidRequest } from "../http/errors";
import { matchesSignature } from "./picture-signature";
import type { PictureInput } from "./schemas";

const memberNotFound = () => new AppError("member_not_found", "No such member in this conversation.");

function pictureColumns(picture: PictureInput | null) {
  if (!picture) return { avatarBytes: null, avatarContentType: null, avatarTag: null };
  const bytes = Buffer.from(picture.bytes, "base64");
  if (!matchesSignature(picture.content_type, bytes)) {
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

function toWireMember(member: { id: string; name: string; avatarContentType: string | null; avatarTag: string | null; shownInWidget: boolean }) {
  return {
    id: member.id,
    name: member.name,
    avatar: member.avatarTag ? { content_type: member.avatarContentType, tag: member.avatarTag } : null,
    shown_in_widget: member.shownInWidget,
  };
}

export async function createMember(input: { id: string; name: string; avatar?: PictureInput; shownInWidget?: boolean }) {
  try {
    const member = await (await db()).member.create({
      data: { id: input.id, name: input.name, ...pictureColumns(input.avatar ?? null), shownInWidget: input.shownInWidget ?? false },
    });
    return toWireMember(member);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("already_exists", "A member with this id already exists.");
    throw error;
  }
}

export async function updateMember(id: string, input: { name?: string; avatar?: PictureInput | null; shownInWidget?: boolean }) {
  const prisma = await db();
  const data = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.shownInWidget !== undefined ? { shownInWidget: input.shownInWidget } : {}),
    ...(input.avatar !== undefined ? pictureColumns(input.avatar) : {}),
  };
  const { count } = await prisma.member.updateMany({ where: { id }, data });
  if (count === 0) throw new AppError("member_not_found", "No member has this id.");
  return toWireMember(await prisma.member.findUniqueOrThrow({ where: { id } }));
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

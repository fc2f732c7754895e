import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { serviceOrigin } from "../core/env";
import { AppError } from "../core/errors";
import { publishSessionsEnded } from "../realtime/inbox-signals";
import { hashPassword } from "./passwords";
import { newSecret, sha256Hex } from "./secrets";
import { createSession, type StaffRole } from "./sessions";
import { canSignInWhere } from "../members/can-sign-in";
import { foldEmailCase } from "../core/validation/member-email";

// One-time links: the setup link (the first owner, 24 h, only while no owner exists) and invites
// (7 days). Only the SHA-256 of a code is stored; accepting sets a password and signs in.

const HOUR_MS = 60 * 60 * 1000;
export const SETUP_HOURS = 24;
export const INVITE_DAYS = 7;

const inviteInvalid = () => new AppError("invite_invalid", "This link is invalid, expired or already used. Ask an owner for a new one.");
const emailTaken = () => new AppError("already_exists", "Another member already uses this email.");

interface NewInvite {
  kind: "setup" | "invite";
  role: StaffRole;
  memberId?: string;
  email?: string;
  name?: string;
}

async function createInvite(invite: NewInvite, lifetimeMs: number): Promise<{ id: string; url: string }> {
  const code = newSecret(invite.kind === "setup" ? "su_" : "in_");
  const id = randomUUID();
  await (await db()).staffInvite.create({
    data: {
      id,
      codeHash: sha256Hex(code),
      kind: invite.kind,
      role: invite.role,
      memberId: invite.memberId ?? null,
      email: invite.email === undefined ? null : foldEmailCase(invite.email),
      name: invite.name ?? null,
      expiresAt: new Date(Date.now() + lifetimeMs),
    },
  });
  const page = invite.kind === "setup" ? "setup" : "invite";
  return { id, url: `${serviceOrigin()}/inbox/${page}?code=${encodeURIComponent(code)}` };
}

export async function ownerExists(): Promise<boolean> {
  const owner = await (await db()).member.findFirst({
    where: { ...canSignInWhere, role: "owner" },
    select: { id: true },
  });
  return owner !== null;
}

/** A new setup link while no owner exists (printed at every start), else null. */
export async function setupLinkIfNoOwner(): Promise<string | null> {
  if (await ownerExists()) return null;
  return (await createInvite({ kind: "setup", role: "owner" }, SETUP_HOURS * HOUR_MS)).url;
}

/**
 * An invite link for `email`: to the member who already has that email (or `memberId`), else to a
 * member created on acceptance with `name`.
 */
export async function inviteMember(input: {
  email: string;
  role: StaffRole;
  name?: string;
  memberId?: string;
}): Promise<{ id: string; invite_url: string; expires_at: string }> {
  const prisma = await db();
  const email = foldEmailCase(input.email);
  const holder = await prisma.member.findUnique({ where: { email }, select: { id: true } });
  let memberId = input.memberId;
  if (memberId) {
    const member = await prisma.member.findUnique({ where: { id: memberId }, select: { id: true } });
    if (!member) throw new AppError("member_not_found", "No member has this id.");
    if (holder && holder.id !== memberId) throw emailTaken();
  } else {
    memberId = holder?.id;
  }
  const lifetimeMs = INVITE_DAYS * 24 * HOUR_MS;
  const { id, url } = await createInvite({ kind: "invite", role: input.role, email, name: input.name, memberId }, lifetimeMs);
  return { id, invite_url: url, expires_at: new Date(Date.now() + lifetimeMs).toISOString() };
}

/** Invites not yet accepted, revoked or expired, newest first (never the setup link). */
export async function listPendingInvites() {
  const rows = await (await db()).staffInvite.findMany({
    where: { kind: "invite", usedAt: null, expiresAt: { gt: new Date() } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { member: { select: { name: true, email: true } } },
  });
  return rows.map((row) => ({
    id: row.id,
    email: row.email ?? row.member?.email ?? null,
    name: row.member?.name ?? row.name,
    role: row.role as StaffRole,
    member_id: row.memberId,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  }));
}

/** Revokes a pending invite: its link stops working at once. 404 when none is pending with this id. */
export async function revokeInvite(id: string): Promise<{ id: string; revoked: true }> {
  const { count } = await (await db()).staffInvite.deleteMany({ where: { id, kind: "invite", usedAt: null, expiresAt: { gt: new Date() } } });
  if (count === 0) throw new AppError("not_found", "No pending invite has this identifier.");
  return { id, revoked: true };
}

/** What a link's page shows before it is accepted, or null when the link cannot be used. */
export async function describeInvite(code: string) {
  const invite = await findUsable(code);
  if (!invite) return null;
  if (invite.kind === "setup" && (await ownerExists())) return null;
  const member = invite.memberId ? await (await db()).member.findUnique({ where: { id: invite.memberId }, select: { name: true, email: true } }) : null;
  return { kind: invite.kind, role: invite.role, email: invite.email ?? member?.email ?? null, name: member?.name ?? invite.name ?? null };
}

async function findUsable(code: string) {
  if (code.length > 200) return null;
  const invite = await (await db()).staffInvite.findUnique({ where: { codeHash: sha256Hex(code) } });
  if (!invite || invite.usedAt || invite.expiresAt.getTime() <= Date.now()) return null;
  return invite;
}

export const memberIdFor = (name: string) => {
  const slug = name.normalize("NFKD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase().slice(0, 40);
  return `${slug || "member"}-${randomUUID().slice(0, 8)}`;
};

/** Uses a link once: sets the member's sign-in and returns a new session token. */
export async function acceptInvite(input: { code: string; name?: string; email?: string; password: string }) {
  const invite = await findUsable(input.code);
  if (!invite) throw inviteInvalid();
  const given = invite.email ?? input.email;
  const email = given ? foldEmailCase(given) : undefined;
  if (!email) {
    throw new AppError("invalid_request", "An email is required.", { fields: [{ path: "email", problem: "is required" }] });
  }
  const passwordHash = await hashPassword(input.password);
  const prisma = await db();
  let accepted: { memberId: string; earlierSessionsEnded: boolean };
  try {
    accepted = await prisma.$transaction(async (tx) => {
      const { count } = await tx.staffInvite.updateMany({ where: { id: invite.id, usedAt: null }, data: { usedAt: new Date() } });
      if (count !== 1) throw inviteInvalid();
      if (invite.kind === "setup") {
        const owner = await tx.member.findFirst({ where: { ...canSignInWhere, role: "owner" }, select: { id: true } });
        if (owner) throw inviteInvalid();
      }
      const signIn = { email, role: invite.role, passwordHash, deactivatedAt: null };
      if (invite.memberId) {
        const name = input.name ? { name: input.name } : {};
        await tx.member.update({ where: { id: invite.memberId }, data: { ...signIn, ...name } });
        await tx.staffSession.deleteMany({ where: { memberId: invite.memberId } });
        return { memberId: invite.memberId, earlierSessionsEnded: true };
      }
      const name = input.name ?? invite.name;
      if (!name) throw new AppError("invalid_request", "A name is required.", { fields: [{ path: "name", problem: "is required" }] });
      const existing = await tx.member.findUnique({ where: { email }, select: { id: true } });
      if (existing) {
        await tx.member.update({ where: { id: existing.id }, data: { ...signIn, name } });
        await tx.staffSession.deleteMany({ where: { memberId: existing.id } });
        return { memberId: existing.id, earlierSessionsEnded: true };
      }
      const created = await tx.member.create({ data: { id: memberIdFor(name), name, ...signIn }, select: { id: true } });
      return { memberId: created.id, earlierSessionsEnded: false };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  // An existing member's earlier sessions were deleted with the new password (whether the invite
  // named the member or matched them by email): so end their event streams.
  const { memberId, earlierSessionsEnded } = accepted;
  if (earlierSessionsEnded) await publishSessionsEnded({ memberId });
  const token = await createSession(memberId);
  if (token === null) throw inviteInvalid(); // deactivated in the meantime
  return { memberId, token };
}

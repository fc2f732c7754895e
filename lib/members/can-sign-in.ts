import { STAFF_ROLES } from "../contracts/members";
import type { Prisma } from "../generated/prisma/client";

// Who is an active team member: one who may sign in (an accepted role, a password set, not
// deactivated, an email to sign in with). Only such members are assigned, mentioned, alerted or
// pushed to. One rule, in the three forms the code needs: a row, a Prisma filter, an SQL condition.

export interface SignInColumns {
  role: string | null;
  passwordHash: string | null;
  deactivatedAt: Date | null;
  email: string | null;
}

export const canSignIn = (member: SignInColumns): boolean =>
  (STAFF_ROLES as readonly (string | null)[]).includes(member.role) &&
  member.passwordHash !== null &&
  member.deactivatedAt === null &&
  member.email !== null;

/** Prisma's form; narrow the role by spreading it first: `{ ...canSignInWhere, role: "owner" }`. */
export const canSignInWhere = {
  role: { in: [...STAFF_ROLES] },
  passwordHash: { not: null },
  deactivatedAt: null,
  email: { not: null },
} satisfies Prisma.MemberWhereInput;

const ROLE_LIST = STAFF_ROLES.map((role) => `'${role}'`).join(", ");

/** SQL's form, over the members row `alias` (none: the only members table in the query). */
export function canSignInSql(alias?: string): string {
  const column = (name: string) => (alias ? `${alias}."${name}"` : `"${name}"`);
  return `${column("role")} IN (${ROLE_LIST}) AND ${column("password_hash")} IS NOT NULL AND ${column("deactivated_at")} IS NULL AND ${column("email")} IS NOT NULL`;
}

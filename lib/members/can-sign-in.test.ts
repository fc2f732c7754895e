import { expect, test } from "vitest";
import { db } from "../db/client";
import { canSignIn, canSignInSql, canSignInWhere, type SignInColumns } from "./can-sign-in";

// The rule's three forms agree, on a member who may sign in and on one per way of failing it.
const members: (SignInColumns & { id: string })[] = [
  { id: "m_owner", role: "owner", passwordHash: "hash", deactivatedAt: null, email: "owner@example.test" },
  { id: "m_agent", role: "agent", passwordHash: "hash", deactivatedAt: null, email: "agent@example.test" },
  { id: "m_bot", role: null, passwordHash: null, deactivatedAt: null, email: null },
  { id: "m_invited", role: null, passwordHash: null, deactivatedAt: null, email: "invited@example.test" },
  { id: "m_other_role", role: "viewer", passwordHash: "hash", deactivatedAt: null, email: "viewer@example.test" },
  { id: "m_no_password", role: "agent", passwordHash: null, deactivatedAt: null, email: "nopass@example.test" },
  { id: "m_deactivated", role: "agent", passwordHash: "hash", deactivatedAt: new Date(), email: "gone@example.test" },
  { id: "m_erased", role: "agent", passwordHash: "hash", deactivatedAt: null, email: null },
];

test("the row, Prisma and SQL forms of 'can sign in' pick the same members", async () => {
  const prisma = await db();
  await prisma.member.createMany({ data: members.map((member) => ({ ...member, name: member.id })) });
  const ids = members.map((member) => member.id);

  const byRow = members.filter(canSignIn).map((member) => member.id).sort();
  const byPrisma = (await prisma.member.findMany({ where: { id: { in: ids }, ...canSignInWhere }, select: { id: true } })).map((row) => row.id).sort();
  const bySql = (
    await prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT m.id FROM members m WHERE m.id = ANY($1::text[]) AND ${canSignInSql("m")}`, ids)
  ).map((row) => row.id).sort();
  const bySqlWithoutAlias = (
    await prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT "id" FROM "members" WHERE "id" = ANY($1::text[]) AND ${canSignInSql()}`, ids)
  ).map((row) => row.id).sort();

  expect(byRow).toEqual(["m_agent", "m_owner"]);
  expect(byPrisma).toEqual(byRow);
  expect(bySql).toEqual(byRow);
  expect(bySqlWithoutAlias).toEqual(byRow);
});

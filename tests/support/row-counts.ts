import { db } from "../../lib/db/client";

/** Rows in every application table: compared before and after a rejected request to prove it changed nothing. */
export async function rowCounts(): Promise<Record<string, number>> {
  const prisma = await db();
  const tables = await prisma.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
    ORDER BY table_name`;
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await prisma.$queryRawUnsafe<{ count: bigint | number }[]>(`SELECT count(*) AS count FROM "${table_name}"`);
    counts[table_name] = Number(row?.count ?? 0);
  }
  return counts;
}

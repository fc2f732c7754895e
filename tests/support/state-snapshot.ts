import { db } from "../../lib/db";
import { filesUnder } from "./tickets";

// The proof that a refused request changed nothing: for every application table its row count
// and a digest of every row's full content (so an UPDATE shows too, not only an INSERT), and the
// list of files in the uploads folder (temporary ones included). One round trip to the database.

export interface StateSnapshot {
  tables: Record<string, { rows: number; digest: string }>;
  files: string[];
}

let snapshotSql: string | undefined;

async function buildSql(): Promise<string> {
  const prisma = await db();
  const tables = await prisma.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
    ORDER BY table_name`;
  return tables
    .map(({ table_name: name }) => {
      const quoted = `"${name.replaceAll('"', '""')}"`;
      return `SELECT '${name}' AS name, count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM ${quoted} t`;
    })
    .concat(
      // The same conversations without "seen", which the visitor's list endpoint records (a read
      // that writes exactly this): compared instead of `conversations` for that endpoint.
      `SELECT '${EXCEPT_SEEN}' AS name, count(*)::int AS rows, md5(coalesce(string_agg((to_jsonb(t) - 'visitor_seen_sequence')::text, '|' ORDER BY t.id), '')) AS digest FROM conversations t`,
    )
    .join(" UNION ALL ");
}

export const EXCEPT_SEEN = "conversations (except visitor_seen_sequence)";

/** A snapshot without the full conversations digest: what a read that may record "seen" must leave unchanged. */
export function exceptSeen(snapshot: StateSnapshot): StateSnapshot {
  const { conversations: _ignored, ...tables } = snapshot.tables;
  return { ...snapshot, tables };
}

export async function stateSnapshot(uploadsDir = process.env.UPLOADS_DIR): Promise<StateSnapshot> {
  snapshotSql ??= await buildSql();
  const rows = await (await db()).$queryRawUnsafe<{ name: string; rows: number; digest: string }[]>(snapshotSql);
  const tables = Object.fromEntries(rows.map((row) => [row.name, { rows: Number(row.rows), digest: row.digest }]));
  return { tables, files: uploadsDir ? filesUnder(uploadsDir) : [] };
}

/** Row counts only, for figures in reports. */
export const totalRows = (snapshot: StateSnapshot) => Object.values(snapshot.tables).reduce((sum, table) => sum + table.rows, 0);

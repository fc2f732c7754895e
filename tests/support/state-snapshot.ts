import { db } from "../../lib/db/client";
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
      // A signed-in request's own traces, compared instead of `members` and `staff_sessions` around
      // inbox requests: the member's "active in the inbox" time and with it `updated_at` (recorded
      // after an answer, at most every 10 s, not awaited) and the session's sliding expiry (moved
      // by any signed-in request once a minute, refused ones included: signing in is not what the
      // input got wrong).
      `SELECT '${EXCEPT_ACTIVE}' AS name, count(*)::int AS rows, md5(coalesce(string_agg((to_jsonb(t) - 'inbox_active_at' - 'updated_at')::text, '|' ORDER BY t.id), '')) AS digest FROM members t`,
      `SELECT '${EXCEPT_SLIDING}' AS name, count(*)::int AS rows, md5(coalesce(string_agg((to_jsonb(t) - 'expires_at')::text, '|' ORDER BY t.id), '')) AS digest FROM staff_sessions t`,
    )
    .join(" UNION ALL ");
}

export const EXCEPT_SEEN = "conversations (except visitor_seen_sequence)";
export const EXCEPT_ACTIVE = "members (except inbox_active_at, updated_at)";
export const EXCEPT_SLIDING = "staff_sessions (except expires_at)";

/** A snapshot without the full conversations digest: what a read that may record "seen" must leave unchanged. */
export function exceptSeen(snapshot: StateSnapshot): StateSnapshot {
  const { conversations: _ignored, ...tables } = snapshot.tables;
  return { ...snapshot, tables };
}

/** A snapshot without the full members and sessions digests: what an inbox request must leave unchanged. */
export function exceptActivity(snapshot: StateSnapshot): StateSnapshot {
  const { members: _members, staff_sessions: _sessions, ...tables } = snapshot.tables;
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

// What removes erased rows' bytes from an embedded database's files (measured on PGlite 0.3 /
// PostgreSQL 17, docs/security.md "What erasure removes, where"):
// - a DELETE leaves the row in its heap page, its index entries and the WAL that inserted it;
// - plain VACUUM frees the row's space, but a page's compaction does not zero what it frees (a
//   row at the page's low end stays readable), and index pages (B-tree, GIN) keep the words;
// - VACUUM FULL writes the table and its indexes (TOAST included) into new files and drops the
//   old ones: nothing of a dead row is left in them;
// - the WAL segment holding the rows' inserts goes once a checkpoint no longer needs it: switch to
//   a new segment, then checkpoint; with wal_recycle off (set when the database opens) the old
//   segments are deleted rather than renamed for reuse with their bytes.

/** The calls needed from PGlite. */
interface Session {
  exec(sql: string): Promise<unknown>;
}

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/** Rewrites the tables (VACUUM FULL) and has the WAL that held their erased rows removed. */
export async function scrubTables(session: Session, tables: readonly string[]): Promise<void> {
  for (const table of tables) if (!TABLE_NAME.test(table)) throw new Error(`scrubTables: not a table name: ${table}`);
  await session.exec(`VACUUM FULL ${tables.map((table) => `"${table}"`).join(", ")}`);
  await session.exec("CHECKPOINT");
  await session.exec("SELECT pg_switch_wal()");
  await session.exec("CHECKPOINT");
}

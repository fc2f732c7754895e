import { separatePostgresExecutor, sqlExecutor, type SqlExecutor } from "../lib/db/client";

// How the scale benches seed and build indexes beside the service's own client.

/**
 * Where a scale bench seeds and builds: on PostgreSQL a pool of its own (the service's client ends a
 * query past its statement timeout, and a seed or an index build takes longer); embedded, the service's.
 */
export function bulkExecutor(): Promise<SqlExecutor> {
  const url = process.env.DATABASE_URL;
  return url ? sqlExecutor().then(() => separatePostgresExecutor(url, 1)) : sqlExecutor();
}

/** Statements in one transaction without the statement timeout (an index build at scale). */
export async function unhurried(sql: SqlExecutor, statements: string[]): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.executeSql("SET LOCAL statement_timeout = 0");
    await tx.executeSql("SET LOCAL maintenance_work_mem = '256MB'");
    for (const statement of statements) await tx.executeSql(statement);
  });
}

/** Closes the pool bulkExecutor() opened on PostgreSQL (embedded, the service's client closes with the service). */
export async function endBulk(sql: SqlExecutor): Promise<void> {
  if ("end" in sql) await (sql as { end(): Promise<void> }).end();
}

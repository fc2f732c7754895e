import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { stopRequested } from "../core/lifecycle.mjs";

/** The two calls the runner needs; a pg.Client and a PGlite instance both fit behind it. */
export interface SqlSession {
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  exec(sql: string): Promise<void>;
}

// Any fixed number: every Parley process that migrates takes this advisory lock first, so two
// processes starting at once apply each migration exactly once.
const MIGRATION_LOCK_KEY = 727_073_690;

// Same columns as the table Prisma Migrate keeps, so either tool can read the history.
const HISTORY_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export const defaultMigrationsDir = () => path.join(process.cwd(), "prisma", "migrations");

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/** Thrown when a stop was asked for between two migration steps: the ones before it are recorded, none after. */
export class MigrationsStopped extends Error {}

/**
 * Applies every migration not yet recorded as finished, each in its own transaction. Returns their
 * names. Before each step it asks `shouldStop` (default: a SIGTERM arrived during the start,
 * lib/core/lifecycle.mjs): a step in progress always commits or rolls back whole, and the next
 * start applies the rest.
 */
export async function runMigrations(session: SqlSession, dir = defaultMigrationsDir(), shouldStop: () => boolean = stopRequested): Promise<string[]> {
  const migrations = await readMigrations(dir);
  await session.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await session.exec(HISTORY_TABLE);
    const { rows } = await session.query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((row) => row.migration_name));
    const appliedNow: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      if (shouldStop()) throw new MigrationsStopped(`Stopping before migration ${migration.name}: a stop was asked for during the start; the next start applies it.`);
      await applyMigration(session, migration);
      appliedNow.push(migration.name);
    }
    return appliedNow;
  } finally {
    await session.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  }
}

async function applyMigration(session: SqlSession, migration: Migration): Promise<void> {
  await session.exec("BEGIN");
  try {
    await session.exec(migration.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
       VALUES ($1, $2, now(), $3, 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await session.exec("COMMIT");
  } catch (error) {
    await session.exec("ROLLBACK");
    throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}

/** node-postgres client → SqlSession. */
export function pgSession(client: { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> }): SqlSession {
  return {
    query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)) as { rows: Row[] },
    exec: async (sql) => void (await client.query(sql)),
  };
}

/** PGlite → SqlSession. */
export function pgliteSession(database: {
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  exec(sql: string): Promise<unknown>;
}): SqlSession {
  return { query: (sql, params) => database.query(sql, params), exec: async (sql) => void (await database.exec(sql)) };
}

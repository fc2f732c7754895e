import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, expect, test } from "vitest";
import { MigrationsStopped, pgliteSession, runMigrations, type SqlSession } from "../../lib/db/migrations";

// Issue 38 (loose ends): a SIGTERM during the start stopped the process in the middle of the
// migrations. Now the step in progress finishes (its transaction commits or rolls back whole), no
// further step begins, and the next start applies the rest. The stop arrives here while the second
// of three steps runs (scripts/start.mjs turns SIGTERM into that request: lib/core/lifecycle.mjs).

const dir = mkdtempSync(path.join(tmpdir(), "parley-migrations-stop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const steps = {
  "20990101000000_first": `CREATE TABLE "first" (n integer);`,
  "20990101000001_slow": `CREATE TABLE "slow" (n integer); INSERT INTO "slow" SELECT generate_series(1, 50000);`,
  "20990101000002_third": `CREATE TABLE "third" (n integer);`,
};
for (const [name, sql] of Object.entries(steps)) {
  mkdirSync(path.join(dir, name));
  writeFileSync(path.join(dir, name, "migration.sql"), sql);
}

test("a stop asked for during a migration step lets that step finish, begins no other, and the next start applies the rest", async () => {
  // The runner is the same on both databases; this drives it on PGlite. On an embedded run it starts
  // from the run's migrated dump (tests/support/global-setup.ts), which spares an initdb; a
  // PostgreSQL run writes no dump, and an empty cluster serves as well.
  const seedFile = process.env.EMBEDDED_SEED_FILE;
  const pglite = await PGlite.create("memory://", seedFile ? { loadDataDir: new Blob([readFileSync(seedFile)]) } : {});
  let stop = false;
  const session = pgliteSession(pglite);
  const signalled: SqlSession = {
    query: (sql, params) => session.query(sql, params),
    exec: async (sql) => {
      if (sql.includes(`CREATE TABLE "slow"`)) queueMicrotask(() => (stop = true)); // SIGTERM arrives mid-step
      await session.exec(sql);
    },
  };

  await expect(runMigrations(signalled, dir, () => stop)).rejects.toBeInstanceOf(MigrationsStopped);
  const recorded = async () => (await pglite.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations" WHERE migration_name LIKE '2099%' ORDER BY 1`)).rows.map((row) => row.migration_name);
  expect(await recorded()).toEqual(["20990101000000_first", "20990101000001_slow"]);
  expect((await pglite.query<{ n: number }>(`SELECT count(*)::int AS n FROM "slow"`)).rows[0]!.n).toBe(50000); // whole
  expect((await pglite.query(`SELECT to_regclass('third') AS t`)).rows).toEqual([{ t: null }]);

  expect(await runMigrations(session, dir, () => false)).toEqual(["20990101000002_third"]); // the next start
  expect(await recorded()).toEqual(Object.keys(steps));
  await pglite.close();
});

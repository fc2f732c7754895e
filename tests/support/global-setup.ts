import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { pgliteSession, pgSession, runMigrations } from "../../lib/db/migrations";
import { testDatabaseUrl } from "./postgres";

/**
 * Migrates once for the whole run. On PostgreSQL: TEST_DATABASE_URL, which test files clone. On
 * PGlite: a dump every file's in-memory database starts from (EMBEDDED_SEED_FILE), which spares
 * each file an initdb (about 1.7 s of CPU each).
 */
export default async function globalSetup(): Promise<(() => void) | undefined> {
  const url = testDatabaseUrl();
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await runMigrations(pgSession(client));
    } finally {
      await client.end();
    }
    return undefined;
  }
  const pglite = await PGlite.create("memory://");
  try {
    await runMigrations(pgliteSession(pglite));
    const folder = mkdtempSync(path.join(tmpdir(), "parley-test-seed-"));
    const seedFile = path.join(folder, "migrated.tar");
    writeFileSync(seedFile, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
    process.env.EMBEDDED_SEED_FILE = seedFile;
    return () => rmSync(folder, { recursive: true, force: true });
  } finally {
    await pglite.close();
  }
}

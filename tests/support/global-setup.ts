import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { pgliteSession, pgSession, runMigrations } from "../../lib/db/migrations";
import { testDatabaseUrl } from "./postgres";
import { makeRunCertificate } from "./test-tls";

/**
 * Migrates once for the whole run. On PostgreSQL: TEST_DATABASE_URL, which test files clone. On
 * PGlite: a dump every file's in-memory database starts from (EMBEDDED_SEED_FILE), which spares
 * each file an initdb (about 1.7 s of CPU each). And this run's TLS certificate (test-tls.ts).
 */
export default async function globalSetup(): Promise<() => void> {
  const certificates = mkdtempSync(path.join(tmpdir(), "parley-test-tls-"));
  makeRunCertificate(certificates);
  const removeCertificates = () => rmSync(certificates, { recursive: true, force: true });
  const url = testDatabaseUrl();
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await runMigrations(pgSession(client));
    } finally {
      await client.end();
    }
    return removeCertificates;
  }
  const pglite = await PGlite.create("memory://");
  try {
    await runMigrations(pgliteSession(pglite));
    const folder = mkdtempSync(path.join(tmpdir(), "parley-test-seed-"));
    const seedFile = path.join(folder, "migrated.tar");
    writeFileSync(seedFile, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
    process.env.EMBEDDED_SEED_FILE = seedFile;
    return () => {
      rmSync(folder, { recursive: true, force: true });
      removeCertificates();
    };
  } finally {
    await pglite.close();
  }
}

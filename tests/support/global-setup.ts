import pg from "pg";
import { pgSession, runMigrations } from "../../lib/db/migrations";
import { testDatabaseUrl } from "./postgres";

/** On PostgreSQL: migrate TEST_DATABASE_URL once; test files clone it. PGlite needs nothing. */
export default async function globalSetup(): Promise<void> {
  const url = testDatabaseUrl();
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await runMigrations(pgSession(client));
  } finally {
    await client.end();
  }
}

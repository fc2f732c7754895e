import pg from "pg";

// With TEST_DATABASE_URL the suite runs on PostgreSQL: that database is migrated once (global
// setup) and each test file gets its own copy of it, created as a template clone and dropped after.

export const testDatabaseUrl = () => process.env.TEST_DATABASE_URL || undefined;

export function databaseUrlFor(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE cannot run inside the target). */
export async function onServer(baseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrlFor(baseUrl, "postgres") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

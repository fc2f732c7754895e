import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { serviceSigningSecret } from "../../lib/secrets/signing-secret";
import { api } from "../support/api";
import { everyRow } from "../support/every-row";
import { createSite, startConversation } from "../support/fixtures";
import { databaseUrlFor, onServer, testDatabaseUrl } from "../support/postgres";

// Issue 29 on PostgreSQL: a pg_dump holds no secret in plaintext (items 4), and the documented
// pg_dump / pg_restore round trip (docs/deploy.md, Backups) brings back every row (item 6).

const toolsHere = spawnSync("pg_dump", ["--version"]).status === 0 && spawnSync("pg_restore", ["--version"]).status === 0;
const onPostgres = Boolean(testDatabaseUrl()) && toolsHere;
if (!onPostgres) console.log("postgres-dump: skipped (needs TEST_DATABASE_URL, pg_dump and pg_restore)");

const scratch = mkdtempSync(path.join(tmpdir(), "parley-pg-dump-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every row of every table of the database at this URL. */
async function everyRowAt(connectionString: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await everyRow(async <Row>(sql: string) => (await client.query(sql)).rows as Row[]);
  } finally {
    await client.end();
  }
}

describe.runIf(onPostgres)("PostgreSQL dumps", () => {
  test("no secret is in a pg_dump in plaintext; pg_restore of it into an empty database brings back every row", async () => {
    const site = await createSite();
    const identitySecret = (await api.post(`/api/v1/admin/sites/${site.id}/identity-secret`, { admin: true })).json.result.identity_secret as string;
    const webhook = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: "https://hooks.example/in", events: ["conversation.started"] } });
    const webhookSecret = webhook.json.result.secret as string;
    const uploadSecret = await serviceSigningSecret();
    await startConversation(site.id, { body: "Is the lamp in stock?", client_id: "dump-1" });

    const source = process.env.DATABASE_URL!;
    const plain = execFileSync("pg_dump", ["--no-owner", "--dbname", source], { maxBuffer: 256 * 1024 * 1024 });
    expect(plain.includes(Buffer.from(site.id))).toBe(true); // the grep can find what is there
    for (const secret of [identitySecret, identitySecret.slice(4), webhookSecret, webhookSecret.slice(6), uploadSecret]) {
      expect(plain.includes(Buffer.from(secret))).toBe(false);
    }
    expect(plain.includes(Buffer.from(webhookSecret.slice(6), "base64"))).toBe(false);

    const archive = path.join(scratch, "parley.dump");
    execFileSync("pg_dump", ["--format=custom", "--no-owner", "--file", archive, "--dbname", source]);
    const restoredName = `parley_restored_${Date.now()}`;
    await onServer(testDatabaseUrl()!, `CREATE DATABASE "${restoredName}"`);
    const restored = databaseUrlFor(testDatabaseUrl()!, restoredName);
    try {
      execFileSync("pg_restore", ["--no-owner", "--exit-on-error", "--dbname", restored, archive]);
      const before = await everyRowAt(source);
      expect(JSON.parse(before.messages!).some((row: { body: string }) => row.body === "Is the lamp in stock?")).toBe(true);
      expect(await everyRowAt(restored)).toEqual(before);
    } finally {
      await onServer(testDatabaseUrl()!, `DROP DATABASE IF EXISTS "${restoredName}" WITH (FORCE)`);
    }
  });
});

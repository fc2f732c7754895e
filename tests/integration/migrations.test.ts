import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, test } from "vitest";
import { defaultMigrationsDir, pgliteSession, pgSession, runMigrations } from "../../lib/db/migrations";
import { databaseUrlFor, onServer, testDatabaseUrl } from "../support/postgres";
import { requireService } from "../support/requires";

const onPostgres = await requireService("postgres");

const migrationNames = () => readdirSync(defaultMigrationsDir()).sort();
const checksumOf = (name: string) =>
  createHash("sha256").update(readFileSync(path.join(defaultMigrationsDir(), name, "migration.sql"), "utf8")).digest("hex");

describe("the migration runner", () => {
  test("applies every migration once, recording Prisma-compatible history", async () => {
    const database = await PGlite.create("memory://");
    try {
      expect(await runMigrations(pgliteSession(database))).toEqual(migrationNames());
      expect(await runMigrations(pgliteSession(database))).toEqual([]);
      const { rows } = await database.query<{ migration_name: string; checksum: string; applied_steps_count: number }>(
        `SELECT migration_name, checksum, applied_steps_count FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name`,
      );
      expect(rows).toEqual(migrationNames().map((name) => ({ migration_name: name, checksum: checksumOf(name), applied_steps_count: 1 })));
    } finally {
      await database.close();
    }
  });

  test("a failing migration rolls back and is not recorded", async () => {
    const database = await PGlite.create("memory://");
    try {
      await database.exec(`CREATE TABLE "inboxes" (id text)`); // the first migration will collide with this
      await expect(runMigrations(pgliteSession(database))).rejects.toThrow(/failed/);
      const { rows } = await database.query(`SELECT * FROM "_prisma_migrations"`);
      expect(rows).toEqual([]);
    } finally {
      await database.close();
    }
  });

  test.runIf(onPostgres)("two processes starting at once on PostgreSQL apply each migration exactly once", async () => {
    const template = testDatabaseUrl()!;
    const name = `parley_migrate_${randomBytes(4).toString("hex")}`;
    await onServer(template, `CREATE DATABASE "${name}"`);
    const clients = [0, 1].map(() => new pg.Client({ connectionString: databaseUrlFor(template, name) }));
    try {
      await Promise.all(clients.map((client) => client.connect()));
      const applied = await Promise.all(clients.map((client) => runMigrations(pgSession(client))));
      expect(applied.flat().sort()).toEqual(migrationNames());
      const { rows } = await clients[0]!.query(`SELECT count(*)::int AS n FROM "_prisma_migrations"`);
      expect(rows[0].n).toBe(migrationNames().length);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
      await onServer(template, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
});

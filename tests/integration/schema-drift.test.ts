import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { CATALOGUE_QUERIES, readPrismaSchema, schemaDrift, type Catalogue } from "../support/schema-drift";

// prisma/schema.prisma and the SQL migrations describe the same tables twice; this keeps them equal
// on whichever database the suite runs (PGlite here, PostgreSQL in CI's second pass).

const schemaText = readFileSync(path.resolve(import.meta.dirname, "../../prisma/schema.prisma"), "utf8");

async function migratedCatalogue(): Promise<Catalogue> {
  const prisma = await db();
  const [columns, indexes, foreignKeys] = await Promise.all([
    prisma.$queryRawUnsafe<Catalogue["columns"]>(CATALOGUE_QUERIES.columns),
    prisma.$queryRawUnsafe<Catalogue["indexes"]>(CATALOGUE_QUERIES.indexes),
    prisma.$queryRawUnsafe<Catalogue["foreignKeys"]>(CATALOGUE_QUERIES.foreignKeys),
  ]);
  return { columns, indexes, foreignKeys };
}

describe("schema.prisma and the migrated database", () => {
  test("describe the same tables, columns, types, nullability, defaults, indexes and foreign keys", async () => {
    const catalogue = await migratedCatalogue();
    expect(catalogue.columns.length).toBeGreaterThan(50);
    expect(schemaDrift(readPrismaSchema(schemaText), catalogue)).toEqual([]);
  });

  test("a column made optional only in schema.prisma is reported", async () => {
    const drifted = schemaText.replace(/(\n\s+subject\s+)String(\s)/, "$1String?$2");
    expect(drifted).not.toBe(schemaText);
    expect(schemaDrift(readPrismaSchema(drifted), await migratedCatalogue())).toEqual([
      "tickets.subject: NOT NULL in the database, optional in schema.prisma",
    ]);
  });

  test("an index, a type and a column changed only in the database are reported", async () => {
    const prisma = await db();
    await prisma.$executeRawUnsafe(`CREATE INDEX "drift_probe_idx" ON "tickets"("email")`);
    await prisma.$executeRawUnsafe(`ALTER TABLE "page_views" ADD COLUMN "drift_probe" TEXT`);
    await prisma.$executeRawUnsafe(`ALTER TABLE "settings" ALTER COLUMN "value" TYPE VARCHAR(200)`);
    try {
      expect(schemaDrift(readPrismaSchema(schemaText), await migratedCatalogue())).toEqual([
        "page_views.drift_probe: in the database, missing from schema.prisma",
        "settings.value: type character varying(200) in the database, text in schema.prisma",
        "tickets(email): index in the database, missing from schema.prisma",
      ]);
    } finally {
      await prisma.$executeRawUnsafe(`DROP INDEX "drift_probe_idx"`);
      await prisma.$executeRawUnsafe(`ALTER TABLE "page_views" DROP COLUMN "drift_probe"`);
      await prisma.$executeRawUnsafe(`ALTER TABLE "settings" ALTER COLUMN "value" TYPE TEXT`);
    }
  });
});

import { readFileSync } from "node:fs";
import path from "node:path";
import { get_dmmf } from "@prisma/prisma-schema-wasm";

// Compares prisma/schema.prisma, as Prisma itself reads it (its schema engine's DMMF), with the
// catalogue of a migrated database: tables, columns, types, nullability, defaults, indexes and
// foreign keys. Each difference is one line naming the table and what disagrees.

const SCHEMA_PATH = path.resolve(import.meta.dirname, "../../prisma/schema.prisma");

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "object" | "enum" | "unsupported";
  isList: boolean;
  isRequired: boolean;
  hasDefaultValue: boolean;
  type: string;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
}

interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}

interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  fields: { name: string }[];
}

interface Dmmf {
  datamodel: { models: DmmfModel[]; indexes: DmmfIndex[] };
}

export interface ColumnRow {
  table_name: string;
  column_name: string;
  is_nullable: "YES" | "NO";
  column_default: string | null;
  /** `format_type` of the column: `text`, `integer`, `timestamp(3) with time zone`, `text[]`… */
  type: string;
}

export interface IndexRow {
  table_name: string;
  columns: string[];
  is_unique: boolean;
  is_primary: boolean;
}

export interface ForeignKeyRow {
  table_name: string;
  columns: string[];
  referenced_table: string;
  referenced_columns: string[];
}

export interface Catalogue {
  columns: ColumnRow[];
  indexes: IndexRow[];
  foreignKeys: ForeignKeyRow[];
}

/** Catalogue queries for the `public` schema; each returns plain rows on PGlite and PostgreSQL. */
export const CATALOGUE_QUERIES = {
  columns: `
    SELECT c.relname AS table_name, a.attname AS column_name,
           CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END AS is_nullable,
           -- a generated column's expression is kept where defaults are: it is not a default
           CASE WHEN a.attgenerated = '' THEN pg_get_expr(d.adbin, d.adrelid) END AS column_default,
           format_type(a.atttypid, a.atttypmod) AS type
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid AND c.relkind = 'r'
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relname <> '_prisma_migrations'`,
  indexes: `
    SELECT c.relname AS table_name, i.indisunique AS is_unique, i.indisprimary AS is_primary,
           ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
                   JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum ORDER BY k.position) AS columns
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     -- Expression indexes (search's GIN indexes, migration 20261127030000) cannot be written in
     -- schema.prisma; the search's tests use them.
     WHERE c.relname <> '_prisma_migrations' AND i.indexprs IS NULL`,
  foreignKeys: `
    SELECT c.relname AS table_name, r.relname AS referenced_table,
           ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS x(attnum, position)
                   JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = x.attnum ORDER BY x.position) AS columns,
           ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY AS x(attnum, position)
                   JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = x.attnum ORDER BY x.position) AS referenced_columns
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_class r ON r.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     WHERE k.contype = 'f'`,
} as const;

export function readPrismaSchema(schema = readFileSync(SCHEMA_PATH, "utf8")): Dmmf {
  const dmmf = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: schema }))) as Dmmf;
  addUnsupportedFields(dmmf, schema);
  return dmmf;
}

/**
 * Prisma's DMMF leaves out `Unsupported("…")` fields (articles.search_vector, a stored tsvector)
 * though its indexes name them: read them from the schema's text, as kind "unsupported" with the
 * database type as written.
 */
function addUnsupportedFields(dmmf: Dmmf, schema: string): void {
  for (const [, modelName, body] of schema.matchAll(/^model (\w+) \{\n([\s\S]*?)^\}/gm)) {
    const model = dmmf.datamodel.models.find((candidate) => candidate.name === modelName);
    if (!model) continue;
    for (const [, name, type, optional, rest] of body!.matchAll(/^\s*(\w+)\s+Unsupported\("([^"]+)"\)(\?)?(.*)$/gm)) {
      model.fields.push({
        name: name!,
        dbName: /@map\("(\w+)"\)/.exec(rest!)?.[1] ?? null,
        kind: "unsupported",
        isList: false,
        isRequired: !optional,
        hasDefaultValue: /@default\(/.test(rest!),
        type: type!,
      });
    }
  }
}

// Prisma's scalar types on PostgreSQL when no native type is given, as format_type prints them.
const DEFAULT_TYPES: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Boolean: "boolean",
  DateTime: "timestamp(3) without time zone",
  Float: "double precision",
  Decimal: "numeric(65,30)",
  Bytes: "bytea",
  Json: "jsonb",
};

// Native types (`@db.X(args)`) as format_type prints them.
const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  Timestamptz: (args) => `timestamp(${args[0] ?? 6}) with time zone`,
  Timestamp: (args) => `timestamp(${args[0] ?? 6}) without time zone`,
  Date: () => "date",
  Text: () => "text",
  VarChar: (args) => (args.length ? `character varying(${args[0]})` : "character varying"),
  Char: (args) => `character(${args[0] ?? 1})`,
  Uuid: () => "uuid",
  Integer: () => "integer",
  SmallInt: () => "smallint",
  BigInt: () => "bigint",
  Boolean: () => "boolean",
  JsonB: () => "jsonb",
  Json: () => "json",
  ByteA: () => "bytea",
  Inet: () => "inet",
  DoublePrecision: () => "double precision",
  Real: () => "real",
};

function expectedType(field: DmmfField): string {
  let base: string;
  if (field.kind === "unsupported") {
    base = field.type;
  } else if (field.nativeType) {
    const [name, args] = field.nativeType;
    const format = NATIVE_TYPES[name];
    base = format ? format(args) : `unmapped native type ${name}`;
  } else {
    base = DEFAULT_TYPES[field.type] ?? `unmapped type ${field.type}`;
  }
  return field.isList ? `${base}[]` : base;
}

const key = (table: string, columns: string[]) => `${table}(${columns.join(", ")})`;

/** Every way the schema and the database disagree; empty when they describe the same tables. */
export function schemaDrift(dmmf: Dmmf, catalogue: Catalogue): string[] {
  const problems: string[] = [];
  const models = new Map(dmmf.datamodel.models.map((model) => [model.name, model]));
  const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
  const columnOf = (model: DmmfModel, fieldName: string) => {
    const field = model.fields.find((candidate) => candidate.name === fieldName);
    return field?.dbName ?? fieldName;
  };

  const columns = new Map(catalogue.columns.map((row) => [`${row.table_name}.${row.column_name}`, row]));
  const expectedColumns = new Set<string>();
  for (const model of models.values()) {
    const table = tableOf(model);
    for (const field of model.fields) {
      if (field.kind !== "scalar" && field.kind !== "enum" && field.kind !== "unsupported") continue;
      const column = field.dbName ?? field.name;
      const where = `${table}.${column}`;
      expectedColumns.add(where);
      const row = columns.get(where);
      if (!row) {
        problems.push(`${where}: in schema.prisma, missing from the database`);
        continue;
      }
      if (row.type !== expectedType(field)) problems.push(`${where}: type ${row.type} in the database, ${expectedType(field)} in schema.prisma`);
      const nullable = row.is_nullable === "YES";
      if (nullable === field.isRequired) {
        problems.push(`${where}: ${nullable ? "nullable" : "NOT NULL"} in the database, ${field.isRequired ? "required" : "optional"} in schema.prisma`);
      }
      if ((row.column_default !== null) !== field.hasDefaultValue) {
        problems.push(`${where}: ${row.column_default === null ? "no default" : `default ${row.column_default}`} in the database, ${field.hasDefaultValue ? "a default" : "no default"} in schema.prisma`);
      }
    }
  }
  for (const row of catalogue.columns) {
    const where = `${row.table_name}.${row.column_name}`;
    if (!expectedColumns.has(where)) problems.push(`${where}: in the database, missing from schema.prisma`);
  }

  const describeIndex = (unique: boolean, primary: boolean) => (primary ? "primary key" : unique ? "unique index" : "index");
  const expectedIndexes = new Map<string, string>();
  for (const index of dmmf.datamodel.indexes) {
    const model = models.get(index.model);
    if (!model || index.type === "fulltext") continue;
    const where = key(tableOf(model), index.fields.map((field) => columnOf(model, field.name)));
    expectedIndexes.set(where, describeIndex(index.type !== "normal", index.type === "id"));
  }
  const actualIndexes = new Map(catalogue.indexes.map((row) => [key(row.table_name, row.columns), describeIndex(row.is_unique, row.is_primary)]));
  for (const [where, kind] of expectedIndexes) {
    const actual = actualIndexes.get(where);
    if (!actual) problems.push(`${where}: ${kind} in schema.prisma, missing from the database`);
    else if (actual !== kind) problems.push(`${where}: ${actual} in the database, ${kind} in schema.prisma`);
  }
  for (const [where, kind] of actualIndexes) {
    if (!expectedIndexes.has(where)) problems.push(`${where}: ${kind} in the database, missing from schema.prisma`);
  }

  const expectedKeys = new Set<string>();
  for (const model of models.values()) {
    for (const field of model.fields) {
      if (field.kind !== "object" || !field.relationFromFields?.length) continue;
      const target = models.get(field.type);
      if (!target) continue;
      expectedKeys.add(
        `${key(tableOf(model), field.relationFromFields.map((name) => columnOf(model, name)))} → ${key(tableOf(target), (field.relationToFields ?? []).map((name) => columnOf(target, name)))}`,
      );
    }
  }
  const actualKeys = new Set(catalogue.foreignKeys.map((row) => `${key(row.table_name, row.columns)} → ${key(row.referenced_table, row.referenced_columns)}`));
  for (const foreignKey of expectedKeys) {
    if (!actualKeys.has(foreignKey)) problems.push(`foreign key ${foreignKey}: in schema.prisma, missing from the database`);
  }
  for (const foreignKey of actualKeys) {
    if (!expectedKeys.has(foreignKey)) problems.push(`foreign key ${foreignKey}: in the database, missing from schema.prisma`);
  }
  return problems.sort();
}

// The rows of hand-written SQL, typed from the Prisma models (lib/generated/prisma), so a column
// whose type changes in schema.prisma breaks the compilation of every statement that reads it.
// Every column is its field's name in snake_case (`expiresAt` → `expires_at`): schema.prisma maps
// them so, and tests/contract/sql-row.test.ts keeps it so.

type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : Name;

/** A model's fields under their column names, with the types Prisma gives them. */
export type Columns<Model> = { [Field in keyof Model & string as SnakeCase<Field>]: Model[Field] };

/**
 * A row of `Model`'s table as raw SQL returns it: `Names`, columns selected as they are, and
 * `Aliases`, columns selected `AS alias` (alias → the model's field).
 */
export type SqlRow<Model, Names extends keyof Columns<Model>, Aliases extends Record<string, keyof Model> = {}> = Pick<
  Columns<Model>,
  Names
> & { [Alias in keyof Aliases]: Model[Aliases[Alias]] };

/** The columns of a LEFT JOINed table: null when no row matched. */
export type OuterJoined<Row> = { [Column in keyof Row]: Row[Column] | null };

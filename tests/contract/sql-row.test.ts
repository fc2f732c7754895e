import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, test } from "vitest";
import type { Conversation, Member } from "../../lib/generated/prisma/client";
import type { OuterJoined, SqlRow } from "../../lib/core/sql-row";
import { readPrismaSchema } from "../support/schema-drift";

// lib/core/sql-row.ts types the rows of hand-written SQL by the snake_case of each model field. A field
// mapped to any other column name would give those rows a wrong type without a compile error, so
// every column of schema.prisma is kept named that way here.

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function columnsNotInSnakeCase(schema?: string): string[] {
  return readPrismaSchema(schema).datamodel.models.flatMap((model) =>
    model.fields
      .filter((field) => field.kind === "scalar" || field.kind === "enum")
      .filter((field) => (field.dbName ?? field.name) !== snakeCase(field.name))
      .map((field) => `${model.name}.${field.name} is column ${field.dbName}, not ${snakeCase(field.name)}`),
  );
}

describe("the columns of schema.prisma", () => {
  test("are their fields' names in snake_case", () => {
    expect(readPrismaSchema().datamodel.models.length).toBeGreaterThan(20);
    expect(columnsNotInSnakeCase()).toEqual([]);
  });

  test("a field mapped to another name is reported", () => {
    const schema = readFileSync(new URL("../../prisma/schema.prisma", import.meta.url), "utf8");
    const renamed = schema.replace('@map("visitor_name")', '@map("visitor_label")');
    expect(renamed).not.toBe(schema);
    expect(columnsNotInSnakeCase(renamed)).toEqual(["Conversation.visitorName is column visitor_label, not visitor_name"]);
  });
});

describe("SqlRow", () => {
  test("takes each column's type from the model, aliases included", () => {
    type Row = SqlRow<Conversation, "last_sequence" | "closed_at", { conversation_id: "id" }> &
      OuterJoined<SqlRow<Member, never, { member_name: "name" }>>;
    expectTypeOf<Row["last_sequence"]>().toEqualTypeOf<number>();
    expectTypeOf<Row["closed_at"]>().toEqualTypeOf<Date | null>();
    expectTypeOf<Row["conversation_id"]>().toEqualTypeOf<string>();
    expectTypeOf<Row["member_name"]>().toEqualTypeOf<string | null>();
    expectTypeOf<keyof Row>().toEqualTypeOf<"last_sequence" | "closed_at" | "conversation_id" | "member_name">();
  });
});

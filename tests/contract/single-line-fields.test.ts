import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { z } from "zod";

// One single-line rule for every field a client sends (issue 38, loose end): every string field of
// every request schema in lib/contracts (the exports named *Body or *Query), found by walking the
// schemas, refuses C0 and C1 controls and U+2028/U+2029 — unless it is one of the free-text fields
// below, where a line break is content. A new field is in this table as soon as it is in a schema.

const MULTI_LINE = new Set(["body", "comment", "away_message", "password"]);
const LINE_BREAKERS = { "U+2028": "a\u2028b", "U+2029": "a\u2029b", "NEL U+0085": "a\u0085b", "C1 U+009B": "a\u009Bb", "LF": "a\nb", "C0 U+0001": "a\u0001b", "DEL": "a\u007Fb" };

type Schema = z.ZodType & { _zod: { def: Record<string, unknown> & { type: string } } };

interface Field {
  where: string;
  name: string;
  schema: Schema;
}

/** Every field (object property, array element, record value) reachable from `schema`. */
function fieldsOf(schema: Schema, where: string, name: string, found: Field[], seen = new Set<Schema>()): Field[] {
  if (!schema?._zod || seen.has(schema)) return found;
  seen.add(schema);
  const def = schema._zod.def as Record<string, unknown> & { type: string };
  const into = (inner: unknown, at = where, field = name) => fieldsOf(inner as Schema, at, field, found, seen);
  const field = (inner: unknown, at: string, fieldName: string) => {
    found.push({ where: at, name: fieldName, schema: inner as Schema });
    into(inner, at, fieldName);
  };
  switch (def.type) {
    case "object":
      for (const [key, value] of Object.entries(def.shape as Record<string, Schema>)) field(value, `${where}.${key}`, key);
      break;
    case "array":
      field(def.element, `${where}[]`, name);
      break;
    case "record":
      field(def.valueType, `${where}{}`, name);
      break;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "nonoptional":
    case "catch":
      into(def.innerType);
      break;
    case "pipe":
      into(def.in);
      into(def.out);
      break;
    case "union":
      for (const option of def.options as Schema[]) into(option);
      break;
    case "lazy":
      into((def.getter as () => Schema)());
      break;
  }
  return found;
}

const contractsDir = path.resolve(import.meta.dirname, "../../lib/contracts");
const requestFields: Field[] = [];
for (const file of readdirSync(contractsDir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))) {
  const contract = (await import(path.join(contractsDir, file))) as Record<string, unknown>;
  for (const [exported, value] of Object.entries(contract)) {
    if (/(Body|Query)$/.test(exported) && (value as Schema)?._zod) fieldsOf(value as Schema, `${file.replace(/\.ts$/, "")}:${exported}`, "", requestFields);
  }
}
const textFields = requestFields.filter(({ schema }) => Object.values(LINE_BREAKERS).some((value) => schema.safeParse(value).success) || schema.safeParse("ab").success);
const singleLine = textFields.filter(({ name }) => !MULTI_LINE.has(name));

describe("one single-line rule for every field a client sends", () => {
  test("the walk finds the request schemas' text fields, the ones named in the issue among them", () => {
    const where = singleLine.map((field) => field.where);
    expect(where).toEqual(expect.arrayContaining(["conversations:startConversationBody.page_title", "page-views:pageViewBody.page_title", "sites:updateSiteBody.greeting", "conversations:startConversationBody.client_id", "inbox:assignBody.member_id", "search:searchQuery.q"]));
    expect(singleLine.length).toBeGreaterThan(40);
  });

  test.each(Object.entries(LINE_BREAKERS))("no single-line field accepts %s", (_, value) => {
    const accepting = singleLine.filter(({ schema }) => schema.safeParse(value).success).map((field) => field.where);
    expect(accepting).toEqual([]);
  });
});

import { invalidRequest } from "../core/errors";
import { attributeValue } from "../contracts/attributes";
import type { FieldProblem } from "../core/errors";
import { definitionsOf } from "./definitions";

// Attribute values checked against their definitions (docs/attributes.md): each must be of its
// definition's type (else 400, nothing saved); null removes a value. The conversation's own
// change is lib/conversations/conversation-attributes.ts.

export type Change = string | number | boolean | null;

/**
 * Checks `changes` against the definitions: unknown keys and wrong types are 400 naming each
 * (`pathOf` says where the caller sent them). Returns the values typed as stored.
 */
export async function typedAttributeValues(changes: Record<string, unknown>, pathOf: (key: string) => string) {
  const keys = Object.keys(changes);
  const definitions = await definitionsOf(keys);
  const problems: FieldProblem[] = [];
  const typed: Record<string, Change> = {};
  for (const key of keys) {
    const definition = definitions.get(key);
    const value = changes[key];
    if (!definition) problems.push({ path: pathOf(key), problem: "no attribute has this key" });
    else if (value === null) typed[key] = null;
    else {
      const parsed = attributeValue(definition).safeParse(value);
      if (parsed.success) typed[key] = parsed.data;
      else problems.push({ path: pathOf(key), problem: `${parsed.error.issues[0]?.message ?? "wrong type"} (a ${definition.type} attribute)` });
    }
  }
  if (problems.length > 0) throw invalidRequest(`Invalid request body. ${problems[0]!.path}: ${problems[0]!.problem}`.slice(0, 200), problems);
  return { typed, definitions };
}

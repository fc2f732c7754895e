import { invalidRequest } from "../core/errors";
import { attributeFilterValue, type AttributeFilter } from "../contracts/attributes";
import { definitionsOf } from "./definitions";

// The conversation list's `?attr.<key>=` filters (docs/attributes.md): each value read as its
// definition's type, then handed to SQL as two bound parameters (ATTRIBUTE_FILTER_SQL). An unknown
// key, a value that is not of the type, or `.gt`/`.lt` on a type without an order is 400.

const ORDERED = new Set(["number", "date"]);

/** The list statement's $11 (equalities as one JSON object) and $12 (ranges as a JSON array); null when none. */
export async function attributeFilterParams(filters: AttributeFilter[]): Promise<[string | null, string | null]> {
  if (filters.length === 0) return [null, null];
  const definitions = await definitionsOf([...new Set(filters.map((filter) => filter.key))]);
  const equal: Record<string, unknown> = {};
  const ranges: { key: string; op: "gt" | "lt"; value: unknown }[] = [];
  for (const filter of filters) {
    const name = filter.op === "eq" ? `attr.${filter.key}` : `attr.${filter.key}.${filter.op}`;
    const definition = definitions.get(filter.key);
    if (!definition) throw invalidRequest(`${name}: no attribute has this key.`, [{ path: name, problem: "no attribute has this key" }]);
    if (filter.op !== "eq" && !ORDERED.has(definition.type)) {
      throw invalidRequest(`${name}: only number and date attributes take .gt and .lt.`, [{ path: name, problem: "only number and date attributes take .gt and .lt" }]);
    }
    const parsed = attributeFilterValue(definition).safeParse(filter.value);
    if (!parsed.success) {
      const problem = parsed.error.issues[0]?.message ?? `must be a ${definition.type}`;
      throw invalidRequest(`${name}: ${problem}`.slice(0, 200), [{ path: name, problem }]);
    }
    if (filter.op === "eq") equal[filter.key] = parsed.data;
    else ranges.push({ key: filter.key, op: filter.op, value: parsed.data });
  }
  return [Object.keys(equal).length > 0 ? JSON.stringify(equal) : null, ranges.length > 0 ? JSON.stringify(ranges) : null];
}
